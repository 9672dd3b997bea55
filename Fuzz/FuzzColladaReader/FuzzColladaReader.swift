import AssetCore
import FormatCollada
import Foundation

/// libFuzzer entry point for the whole Collada read (libxml2 SAX, document, scene building): any
/// bytes must give a scene or an `AssetError`. The reader takes files, so each input goes through
/// one temporary file. Built only by `Scripts/fuzz collada`.
private let input = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("assetc-fuzz-\(getpid()).dae")

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
        _ = try ColladaReader().read(from: input, options: ReadOptions(limits: limits))
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
