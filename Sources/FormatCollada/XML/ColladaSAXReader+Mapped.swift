import AssetCore
import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// Big files are fed to libxml2 from their mapping, and the long numeric text right after a
/// `<float_array>`, `<p>`, `<v>`... start tag is not fed at all: it is parsed on every core
/// straight from the mapped bytes (`ColladaNumberPieces`), its pages dropped once read.
///
/// libxml2 tokenizing that text was most of a 100 MB export's read, on one core, with each
/// number copied through its character callbacks. A stretch is taken over only when libxml2 has
/// consumed every byte up to the start tag's `>`, stands in element content, and the element has
/// no text yet, and when the stretch holds no byte XML reads specially (`&`, `]`, controls, non-
/// ASCII); anything else (a comment, CDATA, an attribute holding `<float_array>`, a document in
/// another encoding) is fed as before. In place of the stretch libxml2 gets its line feeds, so
/// every line it reports afterwards is the same.
package struct ColladaMappedRead: Sendable {
    /// Files at least this big are mapped.
    package var fileBytes: Int
    /// Shorter numeric text is left to libxml2: taking it over costs more than it saves.
    package var textBytes: Int

    package init(fileBytes: Int, textBytes: Int) {
        self.fileBytes = fileBytes
        self.textBytes = textBytes
    }

    package static let standard = ColladaMappedRead(fileBytes: MappedFile.threshold, textBytes: 64 << 10)
}

extension ColladaSAXReader {

    func feed(_ file: MappedFile) {
        let b = file.bytes
        let n = b.count
        var fed = 0
        var scan = 0
        while error == nil, scan < n, let found = memchr(b.baseAddress! + scan, Int32(UInt8(ascii: "<")), n - scan) {
            let open = UnsafeRawPointer(found) - UnsafeRawPointer(b.baseAddress!)
            var i = open + 1
            while i < n && Self.isNameByte(b[i]) { i += 1 }
            scan = i
            guard Self.takesOverText(named: UnsafeBufferPointer(rebasing: b[(open + 1)..<i])) else { continue }
            guard let close = Self.tagEnd(b, from: i) else { break }
            scan = close + 1
            guard b[close - 1] != UInt8(ascii: "/") else { continue }
            feed(b, fed..<(close + 1))
            fed = close + 1
            let end = memchr(b.baseAddress! + fed, Int32(UInt8(ascii: "<")), n - fed).map { UnsafeRawPointer($0) - UnsafeRawPointer(b.baseAddress!) } ?? n
            guard end - fed >= takeOverBytes, libxml2WaitsInFreshNumericElement(),
                  takeOver(UnsafeBufferPointer(rebasing: b[fed..<end])) else { continue }
            file.release(fed..<end)
            fed = end
            scan = end
        }
        feed(b, fed..<n)
        guard error == nil, let parser else { return }
        let status = xmlParseChunk(parser, nil, 0, 1)
        if status != 0 && error == nil {
            malformed("XML error \(status)", line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)))
        }
    }

    /// Feeds `range` in slices, so libxml2's own buffer stays a slice long.
    private func feed(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var at = range.lowerBound
        while at < range.upperBound, error == nil, let parser {
            let size = min(Self.chunkSize, range.upperBound - at)
            let status = UnsafeRawPointer(b.baseAddress! + at).withMemoryRebound(to: CChar.self, capacity: size) {
                xmlParseChunk(parser, $0, Int32(size), 0)
            }
            if status != 0 && error == nil {
                malformed("XML error \(status)", line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)))
            }
            at += size
        }
    }

    /// Whether libxml2 has taken in everything fed, stands in element content in a numeric element
    /// it has just opened, and reads UTF-8 as it is, so the next bytes are that element's text.
    private func libxml2WaitsInFreshNumericElement() -> Bool {
        guard let parser, let input = parser.pointee.input, parser.pointee.instate == XML_PARSER_CONTENT,
              input.pointee.cur == input.pointee.end, input.pointee.buf?.pointee.encoder == nil,
              let element = stack.last, let kind = kinds.last, kind == .floats || kind == .ints,
              pending.isEmpty, element.floats.isEmpty, element.ints.isEmpty, element.badNumber == nil else { return false }
        return true
    }

    /// Parses the stretch into the open element, then gives libxml2 its line feeds (libxml2
    /// counts lines by them alone); false, with nothing changed, when libxml2 must read it.
    private func takeOver(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let element = stack.last, let kind = kinds.last else { return false }
        let firstLine = currentLine
        let badToken: Range<Int>?
        let newlines: Int
        switch kind {
        case .floats:
            let outcome = ColladaNumberPieces.parse(FloatNumbers.self, text)
            guard outcome.plain else { return false }
            element.floats = outcome.values
            (badToken, newlines) = (outcome.badToken, outcome.newlines)
        case .ints:
            let outcome = ColladaNumberPieces.parse(IntNumbers.self, text)
            guard outcome.plain else { return false }
            element.ints = outcome.values
            (badToken, newlines) = (outcome.badToken, outcome.newlines)
        case .doubles, .text:
            return false
        }
        if let bad = badToken {
            let linesBefore = text[..<bad.lowerBound].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            element.badNumber = (String(decoding: UnsafeBufferPointer(rebasing: text[bad.lowerBound..<min(bad.upperBound, bad.lowerBound + 40)]), as: UTF8.self),
                                 firstLine + linesBefore)
        }
        if element.floats.count + element.ints.count > limits.maxArrayElements {
            failLimit("<\(element.name)> holds more than \(limits.maxArrayElements) numbers")
            return true
        }
        [UInt8](repeating: 0x0A, count: newlines).withUnsafeBufferPointer { feed($0, 0..<$0.count) }
        return true
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x3A || c == 0x2D || c == 0x2E
    }

    /// The element names whose text is taken over: the big arrays of floats and indices.
    private static func takesOverText(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 1: return name[0] == UInt8(ascii: "p") || name[0] == UInt8(ascii: "v")
        case 6: return name.elementsEqual("vcount".utf8)
        case 9: return name.elementsEqual("int_array".utf8)
        case 11: return name.elementsEqual("float_array".utf8)
        default: return false
        }
    }

    /// The `>` closing a start tag whose name ends at `from`, past quoted attribute values.
    private static func tagEnd(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ">") { return i }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < b.count && b[i] != c { i += 1 }
            }
            i += 1
        }
        return nil
    }
}
