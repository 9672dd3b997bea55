import AssetCore
import AssetImage
import AssetPipeline
import AssetRender
import Foundation

/// `--environment FILE` made ready to light with, prefiltered once per environment: the file's
/// SHA-256 keys it in memory for every render of the process, and on disk under a cache folder
/// (`<store>/environments/<hash>.prefiltered`) so `index`, workers and `serve` share the work
/// across runs. A cached file that fails its checks is prefiltered again and rewritten.
public final class EnvironmentLibrary: @unchecked Sendable {
    public static let shared = EnvironmentLibrary()

    private let lock = NSLock()
    private var loaded: [String: PrefilteredEnvironment] = [:]

    public struct Loaded: Sendable {
        public var environment: PrefilteredEnvironment
        public var warnings: [Diagnostic]
        /// Where it came from: "memory", "disk" or "prefiltered".
        public var origin: String
    }

    /// The environment in `path`, prefiltered. Errors (missing file, not an image, past the pixel
    /// budget) are located at the file.
    public func environment(at path: String, cacheFolder: String? = nil) throws(AssetError) -> Loaded {
        let hash = try ContentHash.file(path)
        let key = "sha256:\(hash)"
        if let known = lock.withLock({ loaded[key] }) { return Loaded(environment: known, warnings: [], origin: "memory") }
        var warnings: [Diagnostic] = []
        let cached = cacheFolder.map { Self.cachePath(folder: $0, hash: hash) }
        if let cached, let data = FileManager.default.contents(atPath: cached) {
            do throws(AssetError) {
                let environment = try PrefilteredEnvironment(serialized: Array(data))
                if environment.key == key {
                    remember(environment)
                    return Loaded(environment: environment, warnings: [], origin: "disk")
                }
                warnings.append(.warning("the cached prefilter \(cached) is for another environment; prefiltering again"))
            } catch {
                warnings.append(.warning("the cached prefilter \(cached) is unusable (\(error.message)); prefiltering again"))
            }
        }
        let bytes = try FileBytes.read(path: path, display: path, budget: ReadBudget(ReadLimits()))
        let decoded = try EnvironmentDecoder.decode(bytes, source: path, maxWidth: EnvironmentPrefilter.sourceWidth)
        warnings += decoded.warnings
        let environment = EnvironmentPrefilter.prefilter(decoded.image, key: key)
        remember(environment)
        if let cached {
            do {
                try FileManager.default.createDirectory(atPath: (cached as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                _ = try AtomicOutput.write([OutputFile(relativePath: (cached as NSString).lastPathComponent, bytes: environment.serialized())],
                                           mainPath: cached, force: true)
            } catch {
                warnings.append(.warning("the prefiltered environment could not be cached at \(cached) (\(error))"))
            }
        }
        return Loaded(environment: environment, warnings: warnings, origin: "prefiltered")
    }

    private func remember(_ environment: PrefilteredEnvironment) {
        lock.withLock { loaded[environment.key] = environment }
    }

    public static func cachePath(folder: String, hash: String) -> String {
        (folder as NSString).appendingPathComponent("environments/\(hash).prefiltered")
    }
}

extension EnvironmentLibrary {
    /// The environment `look` lights with, as Radiance `.hdr` bytes for a web view's `RGBELoader`:
    /// the prefiltered mirror level (the source reduced to at most 256 texels wide, plenty for a
    /// view's reflections) with the rotation baked in, since three.js r111 cannot turn an environment map.
    public static func viewerRadiance(for look: RenderOptions) -> [UInt8] {
        let environment = look.environment ?? StudioEnvironment.prefiltered
        return RadianceEncoder.encode(RadianceEncoder.turned(environment.specularLevels[0], degrees: look.environmentRotation))
    }
}
