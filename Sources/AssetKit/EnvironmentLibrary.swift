import AssetCore
import AssetImage
import AssetPipeline
import AssetRender
import Foundation

/// `--environment FILE` made ready to light with, prefiltered once per environment: the file's
/// SHA-256 keys it in memory for every render of the process, and on disk under a cache folder
/// (`<folder>/environments/<hash>.prefiltered`: the catalog's for `index`, workers and `serve`,
/// the user's cache folder for `thumbnail`) so runs share the work. A cached file is checksummed
/// and written atomically, so processes sharing the folder never read half of one; one that fails
/// its checks is prefiltered again and rewritten. The folder keeps at most `maxCachedEnvironments`,
/// the least recently used going first.
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
    public static let maxCachedEnvironments = 32

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
                    // Used now: the bound on the folder drops the least recently used first.
                    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: cached)  // a read-only cache still serves
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
                Self.prune((cached as NSString).deletingLastPathComponent, keeping: Self.maxCachedEnvironments)
            } catch {
                warnings.append(.warning("the prefiltered environment could not be cached at \(cached) (\(error))"))
            }
        }
        return Loaded(environment: environment, warnings: warnings, origin: "prefiltered")
    }

    private func remember(_ environment: PrefilteredEnvironment) {
        lock.withLock { loaded[environment.key] = environment }
    }

    /// Leaves the `keeping` most recently used prefiltered files in `folder`. Another process may
    /// remove the same file first; that is not an error.
    static func prune(_ folder: String, keeping: Int) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder) else { return }
        let files = names.filter { $0.hasSuffix(".prefiltered") }.map { (folder as NSString).appendingPathComponent($0) }
        guard files.count > keeping else { return }
        let dated = files.map { path in
            (path, (try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast)
        }
        for (path, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(keeping) { try? manager.removeItem(atPath: path) }
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
        return RadianceEncoder.encode(RadianceEncoder.turned(environment.specularLevel(0), degrees: look.environmentRotation))
    }
}
