import CLibXML2
import Foundation

/// The small XML documents S3 answers with (listings, errors, multipart uploads): a tree of
/// elements with their text. Read by libxml2 with no network and no entities; S3 documents are
/// a few levels deep, so deeper ones or ones with more elements than a listing page holds are
/// refused as not S3's.
struct S3XML {
    var name: String
    var text: String
    var children: [S3XML]

    static let maxDepth = 8
    static let maxElements = 100_000

    init?(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOBLANKS.rawValue)
        // A damaged answer is refused by returning nil; what libxml2 would print about it is noise.
        let handler = assetc_xml_silence_generic_errors()
        defer { assetc_xml_restore_generic_errors(handler) }
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, Int32(clamping: buffer.count), "s3.xml", nil, options) }
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return nil }
        var count = 0
        func convert(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) -> S3XML? {
            count += 1
            guard count <= Self.maxElements, depth <= Self.maxDepth else { return nil }
            var element = S3XML(name: node.pointee.name.map { String(cString: $0) } ?? "", text: "", children: [])
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE {
                    guard let converted = convert(c, depth: depth + 1) else { return nil }
                    element.children.append(converted)
                } else if c.pointee.type == XML_TEXT_NODE || c.pointee.type == XML_CDATA_SECTION_NODE, let content = c.pointee.content {
                    element.text += String(cString: content)
                }
                child = c.pointee.next
            }
            return element
        }
        guard let converted = convert(root, depth: 0) else { return nil }
        self = converted
    }

    private init(name: String, text: String, children: [S3XML]) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The text of the first child called `name`.
    subscript(_ name: String) -> String? { children.first { $0.name == name }?.text }

    func all(_ name: String) -> [S3XML] { children.filter { $0.name == name } }
}

/// `<Error><Code>…</Code><Message>…</Message></Error>`: what S3 says went wrong.
public struct S3ErrorDocument: Sendable {
    public var code: String
    public var message: String

    public init?(_ bytes: [UInt8]) {
        guard bytes.count < 1 << 16, let document = S3XML(bytes), document.name == "Error", let code = document["Code"] else { return nil }
        self.code = code
        self.message = document["Message"] ?? ""
    }
}
