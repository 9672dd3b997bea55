import AssetCatalog
import AssetCore
import AssetPipeline
import Foundation

/// The assets under a folder, as `thumbnail` and `index` both walk it: models (files a reader
/// claims by content or extension) and textures (PNG and JPEG, loose or in `.xcassets` image sets),
/// hidden entries and one folder to skip (the output or the catalog's own) left out.
struct AssetFolder {
    struct File: Sendable {
        /// The walked folder's own name, then the path inside it (`Art.scnassets/ship.dae`): the
        /// catalog's id, and where a thumbnail run writes the file's PNG.
        var id: String
        /// Relative to the walked folder, '/'-separated.
        var relativePath: String
        var path: String
        var kind: CatalogRecord.Kind
        /// By extension (a texture) or as a reader claims it; the read may still find it damaged.
        var format: AssetFormat
        var byteSize: Int64
        var modifiedAt: Double
    }

    /// Files sorted by relative path. Entries that vanish or cannot be inspected are not assets.
    static func files(under root: String, registry: FormatRegistry, skipping: String?, includeTextures: Bool) -> [File] {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        let skip = skipping.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        let walker = FileManager.default.enumerator(at: rootURL, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        var found: [File] = []
        while let url = walker?.nextObject() as? URL {
            let path = url.standardizedFileURL.path
            if path == skip { walker?.skipDescendants(); continue }
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let format: AssetFormat
            if let texture = AssetFormat.texture(byExtension: url.pathExtension) {
                guard includeTextures else { continue }
                format = texture
            } else if let model = registry.recognisedFormat(url) {
                format = model
            } else {
                continue
            }
            let relative = String(path.dropFirst(rootURL.path.count + 1))
            found.append(File(id: rootURL.lastPathComponent + "/" + relative, relativePath: relative, path: path, kind: format.kind, format: format,
                              byteSize: Int64(values.fileSize ?? 0),
                              modifiedAt: values.contentModificationDate?.timeIntervalSince1970 ?? 0))
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    /// An asset a command was given, directly or inside a folder.
    struct Input: Sendable {
        var path: String
        /// Inside its folder ('/'-separated); a file given by itself, its file name.
        var relativePath: String
        /// The folder's own name, then the relative path (`Art/ships/ship.dae`); a file given by
        /// itself, its file name.
        var id: String
    }

    /// The assets `paths` stand for: a file as given, folders walked recursively (hidden entries
    /// and `skipping` left out) for the files a reader recognises. A path that does not exist fails.
    /// Files given by themselves are named by their path below the deepest folder holding them all
    /// (their file name when there is one, or they sit side by side), so two `scene.gltf` in two
    /// folders keep apart.
    static func inputs(for paths: [String], registry: FormatRegistry, skipping: String?) throws(AssetError) -> [Input] {
        var folders: [Bool] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw AssetError(.fileNotFound, at: SourceLocation(file: path))
            }
            folders.append(isDirectory.boolValue)
        }
        let givenFiles = zip(paths, folders).filter { !$1 }.map { absolute($0.0) }
        let parent = commonParent(of: givenFiles.map { ($0 as NSString).deletingLastPathComponent })
        var inputs: [Input] = []
        for (path, isFolder) in zip(paths, folders) {
            guard isFolder else {
                let name = relative(absolute(path), to: parent)
                inputs.append(Input(path: path, relativePath: name, id: name))
                continue
            }
            for file in files(under: path, registry: registry, skipping: skipping, includeTextures: false) {
                inputs.append(Input(path: (path as NSString).appendingPathComponent(file.relativePath), relativePath: file.relativePath, id: file.id))
            }
        }
        return inputs
    }

    static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// The deepest folder that holds every one of `folders` (absolute, standardized).
    static func commonParent(of folders: [String]) -> String {
        guard var common = folders.first.map({ $0.split(separator: "/") }) else { return "/" }
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder.split(separator: "/")).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
    }

    /// `path` below `folder`, '/'-separated; its file name when it is not below it.
    static func relative(_ path: String, to folder: String) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }
}
