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
}
