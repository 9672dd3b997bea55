import AssetCore
import Foundation

/// Reads Collada 1.4/1.5 documents (`.dae`) into a `Scene`.
public struct ColladaReader: SceneReader {

    /// When a read is mapped and its numeric text taken from libxml2; nil never maps.
    let mappedRead: ColladaMappedRead?

    public init() {
        mappedRead = .standard
    }

    /// The fuzzer's reader: small thresholds send tiny inputs down the mapped path.
    package init(mappedRead: ColladaMappedRead?) {
        self.mappedRead = mappedRead
    }

    public var formats: [AssetFormat] { [.dae] }

    /// A Collada document is XML whose root element is `<COLLADA`: after the byte-order mark, the
    /// XML declaration, comments and a doctype, the first element must be it. Text that merely
    /// mentions `<COLLADA` (a JSON file, a log) is not one.
    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        var text = Substring(Self.decodedPrefix(prefix).text)
        while true {
            text = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if text.hasPrefix("<COLLADA") { return .dae }
            let close: String
            if text.hasPrefix("<?") { close = "?>" } else if text.hasPrefix("<!--") { close = "-->" } else if text.hasPrefix("<!") { close = ">" } else { return nil }
            guard let end = text.range(of: close) else { return nil }
            text = text[end.upperBound...]
        }
    }

    /// The prefix as text, and whether it was UTF-16 (by its byte-order mark).
    static func decodedPrefix(_ prefix: [UInt8]) -> (text: String, isUTF16: Bool) {
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            let bigEndian = prefix[0] == 0xFE
            var units: [UInt16] = []
            var i = 2
            while i + 1 < prefix.count {
                units.append(bigEndian ? UInt16(prefix[i]) << 8 | UInt16(prefix[i + 1]) : UInt16(prefix[i + 1]) << 8 | UInt16(prefix[i]))
                i += 2
            }
            return (String(decoding: units, as: UTF16.self), true)
        }
        return (String(decoding: prefix, as: UTF8.self), false)
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let path = file.url.path
        var warnings: [Diagnostic] = []
        if Self.decodedPrefix(file.prefix).isUTF16 {
            warnings.append(.warning("the document is UTF-16; it was converted to UTF-8 while reading (most tools expect UTF-8)",
                                     at: SourceLocation(file: display, line: 1)))
        }
        let collected = warnings
        return try LargeStack.run { () throws(AssetError) -> ReadResult in
            let root = try ColladaSAXReader.read(path: path, display: display, budget: ReadBudget(options.limits), mappedRead: mappedRead)
            var reader = ColladaDocumentReader(file: display)
            try reader.read(root)
            var builder = ColladaSceneBuilder(document: reader.document, documentPath: path, options: options)
            let scene = try builder.build()
            return ReadResult(scene: scene, diagnostics: collected + reader.diagnostics + builder.diagnostics)
        }
    }
}
