import AssetCore
import AssetPipeline

/// Atomic text files for the CLI (the gallery page), through the pipeline's writer.
public enum AssetPipelineBridge {
    public static func writeFile(_ text: String, path: String) throws(AssetError) -> [String] {
        try AtomicOutput.write([OutputFile(relativePath: path, bytes: Array(text.utf8))], mainPath: path, force: true)
    }
}
