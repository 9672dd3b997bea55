import AssetCore
import FormatOBJ
import Foundation

/// libFuzzer entry point for the whole OBJ read: any bytes must give a scene or an `AssetError`.
/// Each input goes through one temporary `.obj` file. Built only by `Scripts/fuzz obj`.
private let input = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("assetc-fuzz-\(getpid()).obj")

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
        _ = try OBJReader().read(from: input, options: ReadOptions(limits: limits))
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
