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
