import AssetCore
import FormatUSD

/// libFuzzer entry point for the usdz package reader (libzip underneath): any bytes must open as a
/// package whose entries read (CRCs checked) or fail with an `AssetError`. Every entry is read, and
/// the root layer parsed by content as `USDLayerCache` would. The same bytes also go through
/// `USDZPackageLayout`, validation's own reading of the zip directory, which must agree to refuse or
/// give offsets inside the bytes. They are opened a third way, by ranged reads as a package in a
/// bucket is: whatever opens from memory must open by ranges with the same entries and bytes.
/// Built only by `Scripts/fuzz usdz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let limits = ReadLimits(maxFileBytes: 1 << 20, maxArrayElements: 1 << 20, maxNodeDepth: 64, maxNodes: 100_000,
                            maxPackageEntries: 256, maxMemoryBytes: 512 << 20, maxWork: 1 << 24)
    do {
        let layout = try USDZPackageLayout(bytes: bytes, location: "fuzz.usdz", maxEntries: limits.maxPackageEntries)
        for entry in layout.entries where entry.dataOffset > bytes.count { fatalError("entry '\(entry.name)' starts past the end") }
    } catch {
        // Refusing a damaged directory is the expected outcome for most inputs.
    }
    var inMemory: [(String, [UInt8]?)]?
    defer { compareWithRanges(bytes, limits: limits, expected: inMemory) }
    do {
        let archive = try USDZArchive(bytes: bytes, location: .file(path: "fuzz.usdz"), limits: limits)
        inMemory = archive.entries.map { entry in (entry.name, try? archive.read(entry)) }  // compared below, failures included
        for (k, entry) in archive.entries.enumerated() {
            let contents = try archive.read(entry)
            guard k == 0 else { continue }
            let location = AssetLocation.packageEntry(package: .file(path: "fuzz.usdz"), entry: entry.name)
            if contents.starts(with: Array("PXR-USDC".utf8)) {
                _ = try USDCrateParser.parse(contents, location: location, budget: ReadBudget(limits))
            } else {
                _ = try USDAParser.parse(contents, location: location, budget: ReadBudget(limits))
            }
        }
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}

/// The package read through `RangedZipSource`. It opens without libzip's consistency check, so it
/// may open what the in-memory read refused; what that read opened it must open alike.
private func compareWithRanges(_ bytes: [UInt8], limits: ReadLimits, expected: [(String, [UInt8]?)]?) {
    let ranged: USDZArchive
    do {
        ranged = try USDZArchive(ranged: MemoryObject(bytes), location: .file(path: "fuzz.usdz"), limits: limits)
    } catch {
        if expected != nil { fatalError("opened from memory but not by ranges: \(error)") }
        return
    }
    let read = ranged.entries.map { entry in (entry.name, try? ranged.read(entry)) }  // compared below, failures included
    guard let expected else { return }
    guard read.map(\.0) == expected.map(\.0) else { fatalError("entries differ by ranges: \(read.map(\.0)) vs \(expected.map(\.0))") }
    for (a, b) in zip(read, expected) where a.1 != b.1 { fatalError("entry '\(a.0)' reads differently by ranges") }
}

private final class MemoryObject: RangedBytes {
    let bytes: [UInt8]
    let name = "s3://fuzz/fuzz.usdz"
    var byteCount: Int { bytes.count }
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(_ range: Range<Int>) throws(AssetError) -> [UInt8] { Array(bytes[range]) }
}
