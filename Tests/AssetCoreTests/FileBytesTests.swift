import Foundation
import Testing
@testable import AssetCore

@Suite struct FileBytesTests {
    /// A file past the two-thread threshold, odd-sized so the halves differ, with a byte pattern
    /// that shows any misplaced or missing block.
    @Test func aLargeFileReadInTwoHalvesMatchesItsBytes() throws {
        let size = FileBytes.parallelThreshold + 4097
        let expected = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filebytes-\(UUID().uuidString).bin")
        try Data(expected).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let read = try FileBytes.read(path: url.path, expectedSize: size)
        #expect(read.count == size)
        #expect(read == expected)
    }

    @Test func aFileShorterThanExpectedKeepsWhatIsThere() throws {
        let expected = [UInt8](repeating: 7, count: 1000)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filebytes-\(UUID().uuidString).bin")
        try Data(expected).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FileBytes.read(path: url.path, expectedSize: FileBytes.parallelThreshold + 10) == expected)
    }
}

/// Only regular files are read: a FIFO named like an asset is refused at once, not waited on.
@Suite struct RegularFileTests {
    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString).usda").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: AssetError(.io("is a FIFO (named pipe), not a regular file; assetc reads regular files only"), at: SourceLocation(file: "f.usda"))) {
            _ = try RegularFile.openForReading(path, display: "f.usda")
        }
        #expect(throws: AssetError.self) { try FileBytes.read(path: path, display: "f.usda", budget: ReadBudget(ReadLimits())) }
        #expect(throws: AssetError.self) { try RegularFile.check(path, display: "f.usda") }
    }

    @Test func aFolderAndADeviceAreNamed() {
        #expect(RegularFile.problem(S_IFDIR) == "is a folder, not a file")
        #expect(RegularFile.problem(S_IFCHR)?.hasPrefix("is a device") == true)
        #expect(RegularFile.problem(S_IFREG) == nil)
    }
}
