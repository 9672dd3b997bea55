import AssetCore
import CLibXML2
import Foundation

/// Reads a Collada file with libxml2's SAX2 push parser into a tree of `ColladaElement`s.
///
/// Safe by construction: no network (XML_PARSE_NONET), no external DTD or entity loading, and any
/// entity declaration stops the read, so XXE and "billion laughs" documents are refused before
/// anything expands; only the five predefined entities resolve. libxml2 caps nesting at 256
/// levels. Numeric elements are parsed straight from the streamed bytes into Float/Double/Int32
/// buffers, so a 50 MB `float_array` is never held as text.
final class ColladaSAXReader {
    static let chunkSize = 1 << 20
    static let maxTextBytes = 16 << 20

    let file: String
    let budget: ReadBudget
    var limits: ReadLimits { budget.limits }
    private(set) var root: ColladaElement?
    private var stack: [ColladaElement] = []
    private var kinds: [ColladaContentKind] = []
    private var error: AssetError?
    fileprivate var parser: xmlParserCtxtPtr?
    /// The unfinished tail of a number cut by a chunk boundary.
    private var carry: [UInt8] = []
    private var elementCount = 0

    init(file: String, budget: ReadBudget) {
        self.file = file
        self.budget = budget
    }

    /// Parses the whole file; throws the first located error.
    static func read(path: String, display: String, budget: ReadBudget) throws(AssetError) -> ColladaElement {
        let reader = ColladaSAXReader(file: display, budget: budget)
        try reader.run(path: path)
        guard let root = reader.root else { throw AssetError(.malformed("the document has no root element"), at: SourceLocation(file: display)) }
        return root
    }

    private func run(path: String) throws(AssetError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw AssetError.openFailed(path: file, errno: errno) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var handler = Self.makeHandler()
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let parser = xmlCreatePushParserCtxt(&handler, context, nil, 0, file) else {
            throw AssetError(.io("cannot create an XML parser"), at: SourceLocation(file: file))
        }
        self.parser = parser
        defer {
            // A DOCTYPE makes libxml2's SAX2 defaults build a document and DTD for it, which the
            // context does not own: free it, or every such file leaks them (found by fuzzing).
            if let document = parser.pointee.myDoc {
                xmlFreeDoc(document)
                parser.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(parser)
        }
        xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue))
        while error == nil {
            let data: Data
            do { data = try handle.read(upToCount: Self.chunkSize) ?? Data() } catch {
                throw AssetError(.io("cannot read: \(error.localizedDescription)"), at: SourceLocation(file: file))
            }
            let finished = data.isEmpty
            let status = data.withUnsafeBytes { raw in
                xmlParseChunk(parser, raw.bindMemory(to: CChar.self).baseAddress, Int32(raw.count), finished ? 1 : 0)
            }
            if status != 0 && error == nil {
                fail("XML error \(status)", line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)))
            }
            if finished { break }
        }
        if let error { throw error }
    }

    fileprivate func fail(_ message: String, line: Int?, column: Int? = nil) {
        guard error == nil else { return }
        error = AssetError(.malformed(message), at: SourceLocation(file: file, line: line, column: column))
        if let parser { xmlStopParser(parser) }
    }

    fileprivate func failLimit(_ message: String) {
        guard error == nil else { return }
        error = AssetError(.limitExceeded(message), at: SourceLocation(file: file, line: currentLine))
        if let parser { xmlStopParser(parser) }
    }

    fileprivate var currentLine: Int { parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

    // MARK: Events

    fileprivate func start(name: String, attributes: [(name: String, value: String)]) {
        elementCount += 1
        guard elementCount <= limits.maxNodes * 4 else { return failLimit("more than \(limits.maxNodes * 4) XML elements") }
        // Nodes may nest maxNodeDepth deep; the libraries and bindings around them add a few levels.
        guard stack.count < limits.maxNodeDepth + 32 else {
            return failLimit("XML elements nested deeper than \(limits.maxNodeDepth + 32) levels")
        }
        let element = ColladaElement(name: name, attributes: attributes, line: currentLine)
        if let parent = stack.last { parent.children.append(element) } else { root = element }
        stack.append(element)
        kinds.append(ColladaContentKind.of(name))
    }

    fileprivate func end() {
        if !carry.isEmpty, let element = stack.last, let kind = kinds.last {
            let tail = carry
            carry.removeAll()
            tail.withUnsafeBufferPointer { consume($0, into: element, kind: kind, final: true) }
        }
        if let element = stack.last, kinds.last != .text {
            let count = element.floats.count + element.doubles.count + element.ints.count
            do throws(AssetError) {
                try budget.spend(work: count, for: "<\(element.name)> of \(count) numbers", at: SourceLocation(file: file, line: currentLine))
                try budget.spend(bytes: count * 8, for: "<\(element.name)> of \(count) numbers", at: SourceLocation(file: file, line: currentLine))
            } catch {
                if self.error == nil { self.error = error }
                if let parser { xmlStopParser(parser) }
            }
        }
        stack.removeLast()
        kinds.removeLast()
    }

    fileprivate func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let element = stack.last, let kind = kinds.last else { return }
        if kind == .text {
            guard element.text.utf8.count + bytes.count <= Self.maxTextBytes else {
                return failLimit("text of <\(element.name)> longer than \(Self.maxTextBytes) bytes")
            }
            element.text += String(decoding: bytes, as: UTF8.self)
            return
        }
        if carry.isEmpty {
            consume(bytes, into: element, kind: kind, final: false)
        } else {
            // Finish the number the last chunk cut, then go on with the rest.
            var split = 0
            while split < bytes.count && !Self.isSpace(bytes[split]) { split += 1 }
            carry.append(contentsOf: bytes[0..<split])
            guard split < bytes.count else { return }
            let joined = carry
            carry.removeAll(keepingCapacity: true)
            joined.withUnsafeBufferPointer { consume($0, into: element, kind: kind, final: true) }
            consume(UnsafeBufferPointer(rebasing: bytes[split...]), into: element, kind: kind, final: false)
        }
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    /// Parses whitespace-separated numbers into the element's buffer. Unless `final`, a number
    /// touching the end of the bytes may continue in the next chunk, so it is kept in `carry`.
    private func consume(_ b: UnsafeBufferPointer<UInt8>, into element: ColladaElement, kind: ColladaContentKind, final: Bool) {
        // The buffer is moved into a local for the loop: appending to a class's stored array would
        // be checked for exclusive access at run time on every number.
        let scan: ColladaNumberScan
        switch kind {
        case .floats:
            var values = element.floats
            element.floats = []
            scan = ColladaNumberScan.run(FloatNumbers.self, b, final: final, into: &values)
            element.floats = values
        case .doubles:
            var values = element.doubles
            element.doubles = []
            scan = ColladaNumberScan.run(DoubleNumbers.self, b, final: final, into: &values)
            element.doubles = values
        case .ints:
            var values = element.ints
            element.ints = []
            scan = ColladaNumberScan.run(IntNumbers.self, b, final: final, into: &values)
            element.ints = values
        case .text:
            return
        }
        if let bad = scan.badToken, element.badNumber == nil {
            element.badNumber = (String(decoding: b[bad.lowerBound..<min(bad.upperBound, bad.lowerBound + 40)], as: UTF8.self), currentLine)
        }
        if let tail = scan.carryFrom { carry.append(contentsOf: b[tail...]) }
        if element.floats.count + element.doubles.count + element.ints.count > limits.maxArrayElements {
            failLimit("<\(element.name)> holds more than \(limits.maxArrayElements) numbers")
        }
    }

    // MARK: libxml2 glue

    private static func reader(_ context: UnsafeMutableRawPointer?) -> ColladaSAXReader {
        Unmanaged<ColladaSAXReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localname, _, _, _, _, attributeCount, _, attributes in
            let name = String(cString: localname!)
            var list: [(name: String, value: String)] = []
            if let attributes, attributeCount > 0 {
                list.reserveCapacity(Int(attributeCount))
                for k in 0..<Int(attributeCount) {
                    // Five pointers per attribute: localname, prefix, URI, value start, value end.
                    let key = String(cString: attributes[5 * k]!)
                    let start = attributes[5 * k + 3]!, end = attributes[5 * k + 4]!
                    list.append((key, String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)))
                }
            }
            ColladaSAXReader.reader(context).start(name: name, attributes: list)
        }
        handler.endElementNs = { context, _, _, _ in ColladaSAXReader.reader(context).end() }
        handler.characters = { context, bytes, length in
            guard let bytes, length > 0 else { return }
            ColladaSAXReader.reader(context).characters(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        handler.getEntity = { _, name in xmlGetPredefinedEntity(name) }
        handler.entityDecl = { context, name, _, _, _, _ in
            let reader = ColladaSAXReader.reader(context)
            let entity = name.map { String(cString: $0) } ?? "?"
            reader.fail("entity declaration '\(entity)' refused: Collada documents need no entities (XXE and entity-expansion attacks use them)",
                        line: reader.currentLine)
        }
        handler.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let reader = ColladaSAXReader.reader(context)
            let message = error.pointee.message.map { String(cString: $0) }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "XML error \(error.pointee.code)"
            reader.fail(message, line: Int(error.pointee.line), column: error.pointee.int2 > 0 ? Int(error.pointee.int2) : nil)
        }
        return handler
    }
}

/// How one kind of number is parsed; a protocol so each kind gets its own specialised loop.
protocol ColladaNumberKind {
    associatedtype Value
    static func parse(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Value?
}

enum FloatNumbers: ColladaNumberKind {
    @inline(__always) static func parse(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Float? { DecimalNumberParser.parseFloat(b, &i) }
}

enum DoubleNumbers: ColladaNumberKind {
    @inline(__always) static func parse(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Double? { DecimalNumberParser.parseDouble(b, &i) }
}

enum IntNumbers: ColladaNumberKind {
    @inline(__always) static func parse(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int32? { DecimalNumberParser.parseInt32(b, &i) }
}

/// The outcome of scanning one chunk of numeric text.
struct ColladaNumberScan {
    /// The first token that was not a number of the kind.
    var badToken: Range<Int>?
    /// Where an unfinished number at the end of the chunk starts.
    var carryFrom: Int?

    static func run<Kind: ColladaNumberKind>(_ kind: Kind.Type, _ b: UnsafeBufferPointer<UInt8>, final: Bool,
                                             into values: inout [Kind.Value]) -> ColladaNumberScan {
        var result = ColladaNumberScan()
        var i = 0
        let n = b.count
        while true {
            while i < n && ColladaSAXReader.isSpace(b[i]) { i += 1 }
            guard i < n else { return result }
            let start = i
            if let value = Kind.parse(b, &i), i == n || ColladaSAXReader.isSpace(b[i]) {
                if i == n && !final { result.carryFrom = start; return result }
                values.append(value)
                continue
            }
            var end = start
            while end < n && !ColladaSAXReader.isSpace(b[end]) { end += 1 }
            if end == n && !final { result.carryFrom = start; return result }
            if result.badToken == nil { result.badToken = start..<end }
            i = end
        }
    }
}
