import AssetCore
import FormatUSD

/// libFuzzer entry point for the usdz package reader (libzip underneath): any bytes must open as a
/// package whose entries read (CRCs checked) or fail with an `AssetError`. Every entry is read, and
/// the root layer parsed by content as `USDLayerCache` would. The same bytes also go through
/// `USDZPackageLayout`, validation's own reading of the zip directory, which must agree to refuse or
/// give offsets inside the bytes. Built only by `Scripts/fuzz usdz`.
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
    do {
        let archive = try USDZArchive(bytes: bytes, location: .file(path: "fuzz.usdz"), limits: limits)
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
