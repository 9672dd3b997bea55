import AssetCore
import FormatCollada
import FormatFBX
import FormatGLTF
import FormatOBJ
import FormatPLY
import FormatSPZ
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
        readers: [USDReader(), ColladaReader(), GLTFReader(), OBJReader(), PLYReader(), SPZReader(), STLReader(), FBXReader()],
        writers: [USDAWriter(), USDCWriter(), USDZWriter(), ColladaWriter(), GLTFWriter.gltf, GLTFWriter.glb, OBJWriter(), STLWriter(), PLYWriter(), SPZWriter(), FBXWriter()])

    public var supportedFormats: [AssetFormat] { readers.flatMap(\.formats) }

    /// The reader for a file and the format it is in.
    public struct Match: Sendable {
        public var reader: any SceneReader
        public var file: SniffedFile
        public var format: AssetFormat { file.format }
    }

    /// The reader for a file, judged from its first bytes (read by ranges when `staged` reads the
    /// file so); errors name a staged file by the location it stands for.
    public func reader(for url: URL, staged: StagedFiles = .none) throws(AssetError) -> Match {
        let (prefix, isWhole) = try SniffedFile.head(of: url, staged: staged)
        let ext = url.pathExtension.lowercased()
        for reader in readers {
            if let format = reader.sniff(prefix: prefix, pathExtension: ext) {
                return Match(reader: reader, file: SniffedFile(url: url, format: format, prefix: prefix, isWhole: isWhole))
            }
        }
        // Content first; then the extension, so a damaged file gets its own reader's specific error.
        for reader in readers {
            if let format = reader.formats.first(where: { $0.fileExtensions.contains(ext) }) {
                return Match(reader: reader, file: SniffedFile(url: url, format: format, prefix: prefix, isWhole: isWhole))
            }
        }
        let supported = supportedFormats.map(\.name)
        if let foreign = ForeignFormat.recognise(prefix: prefix) {
            throw AssetError(.unsupportedFormat("this is \(foreign), which assetc does not read", supported: supported),
                             at: SourceLocation(file: staged.name(of: url)))
        }
        let what = ext.isEmpty ? "cannot tell the format of this file" : "'.\(ext)' content is not a format assetc reads"
        throw AssetError(.unsupportedFormat(what, supported: supported), at: SourceLocation(file: staged.name(of: url)))
    }

    /// The format a reader claims the file in, by extension or else by content, without reading
    /// it; nil when no reader claims it. Judging by extension first keeps a folder walk from
    /// opening every file; `reader(for:)` sniffs content first when the file is really read.
    public func recognisedFormat(_ url: URL) -> AssetFormat? {
        let ext = url.pathExtension.lowercased()
        for reader in readers {
            if let format = reader.formats.first(where: { $0.fileExtensions.contains(ext) }) { return format }
        }
        guard let prefix = try? SniffedFile.prefix(of: url) else { return nil }  // unreadable: judged by extension only
        for reader in readers {
            if let format = reader.sniff(prefix: prefix, pathExtension: ext) { return format }
        }
        return nil
    }

    /// Whether a reader claims the file, by content or by extension, without reading it.
    public func recognises(_ url: URL) -> Bool { recognisedFormat(url) != nil }

    /// Reads a scene; with `options.isStrict` the first warning fails the read.
    public func read(_ url: URL, options: ReadOptions = ReadOptions()) throws(AssetError) -> ReadResult {
        try read(try reader(for: url, staged: options.staged), options: options)
    }

    /// Reads a file `reader(for:)` already matched, so a caller that needs the format first
    /// (the converter's report) sniffs once. The readers name a staged file (a bucket prefix's)
    /// by the `s3://` location it stands for in what they say (`ReadOptions.name(of:)`).
    public func read(_ match: Match, options: ReadOptions = ReadOptions()) throws(AssetError) -> ReadResult {
        let url = match.file.url
        var result = try match.reader.read(match.file, options: options)
        result.scene.countedPurposes = options.purposes
        if !result.scene.metadata.declaresUnits, let meters = options.sourceMetersPerUnit {
            // The caller declared the unit the file could not.
            result.scene.metadata.metersPerUnit = meters
            result.scene.metadata.declaresUnits = true
        }
        if options.isStrict, let first = result.warnings.first {
            throw AssetError(.strict(first.message), at: first.location.inFile(options.name(of: url)))
        }
        return result
    }
}
