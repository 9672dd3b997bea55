import AssetCore
import Foundation

/// What every file-reading libFuzzer target does with one input: the same tight limits, the bytes
/// written to one temporary file with the reader's extension, and the read tried. A typed
/// `AssetError` is a clean refusal; anything else (a crash, a leak, a hang) is what libFuzzer
/// reports.
public enum FuzzInput {
    public static let limits = ReadLimits(maxFileBytes: 1 << 20, maxArrayElements: 1 << 20, maxNodeDepth: 64, maxNodes: 100_000,
                                          maxMemoryBytes: 512 << 20, maxWork: 1 << 24)

    public static func read(_ data: UnsafePointer<UInt8>, _ count: Int, fileExtension: String,
                            with read: (URL, ReadOptions) throws(AssetError) -> Void) {
        let input = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("assetc-fuzz-\(getpid()).\(fileExtension)")
        do {
            try Data(bytes: data, count: count).write(to: input)
        } catch {
            fatalError("cannot write the fuzz input to \(input.path): \(error)")
        }
        do throws(AssetError) {
            try read(input, ReadOptions(limits: limits))
        } catch {
            // A clean, typed refusal is the expected outcome for most inputs.
        }
    }

    /// Poses a scene that was read at a few times and takes its bounds, so skinning, blend shapes
    /// and channel sampling meet hostile data too (joint numbers, weights, keys, matrices).
    public static func exercise(_ scene: Scene) {
        for time in [-1.0, 0, 0.5, 1e9] {
            _ = scene.posed(at: time).worldBounds
        }
        _ = scene.stats
    }
}
