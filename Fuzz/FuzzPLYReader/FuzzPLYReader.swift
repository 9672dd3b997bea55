import AssetCore
import FormatPLY
import Foundation

/// libFuzzer entry point for the whole PLY read: any bytes must give a scene or an `AssetError`.
/// Each input goes through one temporary `.ply` file. Built only by `Scripts/fuzz ply`.
private let input = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("assetc-fuzz-\(getpid()).ply")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let limits = ReadLimits(maxFileBytes: 1 << 20, maxArrayElements: 1 << 20, maxNodeDepth: 64, maxNodes: 100_000,
                            maxMemoryBytes: 512 << 20, maxWork: 1 << 24)
    do {
        try Data(bytes: data, count: count).write(to: input)
    } catch {
        fatalError("cannot write the fuzz input to \(input.path): \(error)")
    }
    do {
        _ = try PLYReader().read(from: input, options: ReadOptions(limits: limits))
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
