import AssetCore
import FormatCollada
import FormatGLTF
import FormatOBJ
import FormatPLY
import FormatSTL
import FormatUSD
import Foundation

/// Chooses a reader for a file by its content first (the first bytes), then by its extension,
/// and reads it. The only place that knows every format module.
public struct FormatRegistry: Sendable {
    public var readers: [any SceneReader]
    public var writers: [any SceneWriter]

    public init(readers: [any SceneReader], writers: [any SceneWriter] = []) {
        self.readers = readers
        self.writers = writers
    }

    /// Every reader and writer assetc ships.
    public static let standard = FormatRegistry(
        readers: [USDReader(), ColladaReader()],
        writers: [USDAWriter(), USDCWriter(), USDZWriter(), ColladaWriter(), GLTFWriter.gltf, GLTFWriter.glb, OBJWriter(), STLWriter(), PLYWriter()])

    public var supportedFormats: [FormatDescription] { readers.flatMap(\.formats) }

    /// How many leading bytes sniffing looks at; enough for XML prologues, zip headers and BOMs.
    static let sniffLength = 4096

    public func reader(for url: URL) throws(AssetError) -> (reader: any SceneReader, format: FormatDescription) {
        let prefix = try Self.readPrefix(of: url)
        let ext = url.pathExtension.lowercased()
        for reader in readers {
            if let format = reader.sniff(prefix: prefix, pathExtension: ext) { return (reader, format) }
        }
        // Content first; then the extension, so a damaged file gets its own reader's specific error.
        for reader in readers {
            if let format = reader.formats.first(where: { $0.fileExtensions.contains(ext) }) { return (reader, format) }
        }
        let supported = supportedFormats.map(\.name)
        if let foreign = ForeignFormat.recognise(prefix: prefix) {
            throw AssetError(.unsupportedFormat("this is \(foreign), which assetc does not read", supported: supported),
                             at: SourceLocation(file: url.relativePath))
        }
        let what = ext.isEmpty ? "cannot tell the format of this file" : "'.\(ext)' content is not a format assetc reads"
        throw AssetError(.unsupportedFormat(what, supported: supported), at: SourceLocation(file: url.relativePath))
    }

    /// Reads a scene; with `options.isStrict` the first warning fails the read.
    public func read(_ url: URL, options: ReadOptions = ReadOptions()) throws(AssetError) -> ReadResult {
        let (reader, _) = try reader(for: url)
        let result = try reader.read(from: url, options: options)
        if options.isStrict, let first = result.warnings.first {
            throw AssetError(.strict(first.message), at: first.location.inFile(url.relativePath))
        }
        return result
    }

    static func readPrefix(of url: URL) throws(AssetError) -> [UInt8] {
        let location = SourceLocation(file: url.relativePath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw AssetError(.fileNotFound, at: location)
        }
        if isDirectory.boolValue { throw AssetError(.io("is a folder, not a file"), at: location) }
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw AssetError(.io("cannot open: \(error.localizedDescription)"), at: location)
        }
        defer { try? handle.close() }  // closing a read-only handle has nothing to report
        do {
            return Array(try handle.read(upToCount: sniffLength) ?? Data())
        } catch {
            throw AssetError(.io("cannot read: \(error.localizedDescription)"), at: location)
        }
    }
}
