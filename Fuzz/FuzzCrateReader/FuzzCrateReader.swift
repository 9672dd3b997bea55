import AssetCore
import FormatUSD

/// libFuzzer entry point for the crate (`.usdc`) reader: any bytes must give a layer or an
/// `AssetError`, never a crash, a hang or an unbounded allocation. Built only by
/// `Scripts/fuzz-crate`, which sets ASSETC_FUZZ so Package.swift declares this target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    // Small limits keep each input cheap so the fuzzer explores more of them per second.
    let limits = ReadLimits(maxFileBytes: 1 << 20, maxArrayElements: 1 << 20, maxNodeDepth: 64, maxNodes: 100_000,
                            maxMemoryBytes: 512 << 20, maxWork: 1 << 24)
    do {
        _ = try USDCrateParser.parse(bytes, location: .file(path: "fuzz.usdc"), budget: ReadBudget(limits))
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
