import AssetCore
import FormatUSD

/// libFuzzer entry point for the usda text parser: any bytes must give a layer document or an
/// `AssetError`, never a crash, a hang or an unbounded allocation. Built only by `Scripts/fuzz usda`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    // Small limits keep each input cheap so the fuzzer explores more of them per second.
    let limits = ReadLimits(maxFileBytes: 1 << 20, maxArrayElements: 1 << 20, maxNodeDepth: 64, maxNodes: 100_000,
                            maxMemoryBytes: 512 << 20, maxWork: 1 << 24)
    do {
        let layer = try USDAParser.parse(bytes, location: .file(path: "fuzz.usda"), budget: ReadBudget(limits))
        // Whatever parses must also print: the writers' printer meets every document the parser makes.
        _ = USDAPrinter.print(layer)
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
