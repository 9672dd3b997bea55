import AssetCore
import CLibXML2
import Dispatch
import Foundation
import Synchronization

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
    private(set) var stack: [ColladaElement] = []
    private(set) var kinds: [ColladaContentKind] = []
    private(set) var error: AssetError?
    private(set) var parser: xmlParserCtxtPtr?
    /// Numeric text not yet parsed. libxml2 hands character data over in pieces of a few hundred
    /// bytes, which cut numbers anywhere; gathering them and parsing up to the last whitespace
    /// once per `flushSize` keeps the number loop long and never splits a number.
    private(set) var pending: [UInt8] = []
    static let flushSize = 64 << 10
    /// The file's size: no element can hold more numbers than half its bytes.
    private var fileBytes = 0
    /// Numbers are parsed on a second thread while libxml2 tokenizes the next bytes on this one:
    /// at 300-400 MB/s the tokenizer alone is most of a big file's time, so the two overlap.
    /// Runs are parsed in order, one at a time; an element's buffers are touched here only after
    /// `drain()`.
    private let numbers = DispatchQueue(label: "assetc.collada.numbers")
    /// At most this many runs (64 KB each) wait for the number thread.
    private let room = DispatchSemaphore(value: 4)
    /// Run buffers the number thread is done with, filled again by later runs. A fresh array per
    /// run was a quarter of a large file's page faults: the allocator gave each freed run back to
    /// the kernel, and the next run faulted the same amount of memory in again.
    private let spareRuns = Locked<[[UInt8]]>([])
    /// Set by the number thread when an element passes `maxArrayElements`.
    private let overLimit = AtomicFlag()
    /// Whether a run was handed to the number thread since the last `drain()`. A short element
    /// whose text is all here is parsed on this thread instead: 60,000 `<matrix>` elements handed
    /// over one by one cost three seconds of thread wake-ups for a few microseconds of parsing.
    private var runsInFlight = false
    private var elementCount = 0
    /// Numeric text shorter than this is left to libxml2 in a mapped read (`ColladaMappedRead`).
    var takeOverBytes = Int.max

    init(file: String, budget: ReadBudget) {
        self.file = file
        self.budget = budget
    }

    /// Parses the whole file; throws the first located error.
    /// `mappedRead: nil` feeds every byte through libxml2 from plain reads (the path for small
    /// files), so tests and the fuzzer can hold the two paths side by side.
    static func read(path: String, display: String, budget: ReadBudget,
                     mappedRead: ColladaMappedRead? = .standard) throws(AssetError) -> ColladaElement {
        let reader = ColladaSAXReader(file: display, budget: budget)
        reader.takeOverBytes = mappedRead?.textBytes ?? .max
        try reader.run(path: path, mappedFrom: mappedRead?.fileBytes ?? .max)
        guard let root = reader.root else { throw AssetError(.malformed("the document has no root element"), at: SourceLocation(file: display)) }
        return root
    }

    private func run(path: String, mappedFrom: Int) throws(AssetError) {
        let fd = try RegularFile.openForReading(path, display: file)
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0 { fileBytes = Int(status.st_size) }
        pending.reserveCapacity(Self.flushSize * 2)
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
        if fileBytes >= mappedFrom, let mapped = MappedFile(path: path, size: fileBytes) {
            feed(mapped)
            drain()
            if mapped.changedWhileRead { throw MappedFile.changedError(at: file) }
            if let error { throw error }
            return
        }
        // One buffer for every chunk: a fresh `Data` per read cost a fifth of a large file's time
        // in page faults on memory the allocator had just returned to the kernel.
        var chunk = [CChar](repeating: 0, count: Self.chunkSize)
        while error == nil {
            var count = 0
            repeat { count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } } while count < 0 && errno == EINTR
            guard count >= 0 else {
                throw AssetError(.io("cannot read: \(String(cString: strerror(errno)))"), at: SourceLocation(file: file))
            }
            let finished = count == 0
            let status = chunk.withUnsafeBufferPointer { xmlParseChunk(parser, $0.baseAddress, Int32(count), finished ? 1 : 0) }
            if status != 0 && error == nil {
                malformed("XML error \(status)", line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)))
            }
            if finished { break }
        }
        drain()
        if let error { throw error }
    }

    func malformed(_ message: String, line: Int?, column: Int? = nil) {
        guard error == nil else { return }
        error = AssetError(.malformed(message), at: SourceLocation(file: file, line: line, column: column))
        if let parser { xmlStopParser(parser) }
    }

    func failLimit(_ message: String) {
        guard error == nil else { return }
        error = AssetError(.limitExceeded(message), at: SourceLocation(file: file, line: currentLine))
        if let parser { xmlStopParser(parser) }
    }

    var currentLine: Int { parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

    // MARK: Events

    fileprivate func start(name: String, attributes: [(name: String, value: String)]) {
        elementCount += 1
        guard elementCount <= limits.maxNodes * 4 else { return failLimit("more than \(limits.maxNodes * 4) XML elements") }
        // Nodes may nest maxNodeDepth deep; the libraries and bindings around them add a few levels.
        guard stack.count < limits.maxNodeDepth + 32 else {
            return failLimit("XML elements nested deeper than \(limits.maxNodeDepth + 32) levels")
        }
        // Numbers before a child element end at its tag.
        if !pending.isEmpty, let open = stack.last, let kind = kinds.last { flush(into: open, kind: kind, all: true) }
        let element = ColladaElement(name: name, attributes: attributes, line: currentLine)
        let parent = stack.last
        if let parent { parent.children.append(element) } else { root = element }
        stack.append(element)
        let kind = ColladaContentKind.of(name)
        kinds.append(kind)
        if kind != .text, let declared = declaredCount(of: element, parent: parent) { reserve(declared, in: element, kind: kind) }
    }

    /// How many numbers the document says an element holds: a `*_array`'s `count`, or for `<p>`
    /// the primitive count times corners times the inputs' stride. Only a hint for reserving.
    private func declaredCount(of element: ColladaElement, parent: ColladaElement?) -> Int? {
        if element.name.hasSuffix("_array") { return element["count"].flatMap { Int($0) } }
        guard element.name == "p", let parent, let count = parent["count"].flatMap({ Int($0) }) else { return nil }
        // Offsets and counts are the file's word: any overflow means no hint at all.
        let offsets = parent.children("input").compactMap { $0["offset"].flatMap { Int($0) } }
        let highest = offsets.max() ?? 0
        guard highest >= 0, highest < Int.max else { return nil }
        let corners: Int
        switch parent.name {
        case "triangles": corners = 3
        case "lines": corners = 2
        case "polylist":
            guard let vcount = parent.child("vcount") else { return nil }
            return Self.product(vcount.ints.reduce(0) { $0 &+ max(Int($1), 0) }, highest + 1)
        default: return nil
        }
        return Self.product(count, corners).flatMap { Self.product($0, highest + 1) }
    }

    private static func product(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || value < 0 ? nil : value
    }

    /// Reserves the declared count once, so a 50 MB array is not copied as it grows, bounded by what
    /// the file's bytes can hold and by a quarter of the memory budget: a hostile count reserves
    /// nothing the read could not have filled anyway.
    private func reserve(_ declared: Int, in element: ColladaElement, kind: ColladaContentKind) {
        let cap = min(fileBytes / 2 + 1, limits.maxArrayElements, limits.maxMemoryBytes / 32)
        let count = min(max(declared, 0), cap)
        guard count > 1024 else { return }
        switch kind {
        case .floats: element.floats.reserveCapacity(count); HugePages.advise(&element.floats)
        case .doubles: element.doubles.reserveCapacity(count); HugePages.advise(&element.doubles)
        case .ints: element.ints.reserveCapacity(count); HugePages.advise(&element.ints)
        case .text: break
        }
    }

    fileprivate func end() {
        if !pending.isEmpty, let element = stack.last, let kind = kinds.last { flush(into: element, kind: kind, all: true) }
        if let element = stack.last, kinds.last != .text {
            drain()
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
        pending.append(contentsOf: bytes)
        if pending.count >= Self.flushSize { flush(into: element, kind: kind, all: false) }
    }

    /// Parses the gathered text up to its last whitespace (all of it at the element's end). A
    /// token longer than a megabyte is no number: it is parsed as it is, which records it as bad.
    private func flush(into element: ColladaElement, kind: ColladaContentKind, all: Bool) {
        var cut = pending.count
        if !all {
            while cut > 0 && !Self.isSpace(pending[cut - 1]) { cut -= 1 }
            if cut == 0 {
                guard pending.count > 1 << 20 else { return }
                cut = pending.count
            }
        }
        // Lines after the cut were already counted by libxml2: the run's last line is found back from there.
        let linesAfter = pending[cut...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if all && !runsInFlight {
            let run = NumberRun(bytes: pending, element: element, kind: kind, lastLine: currentLine - linesAfter, maxElements: limits.maxArrayElements)
            let parsed = run.parse()
            pending = run.takeBytes()
            if !parsed { failLimit("<\(element.name)> holds more than \(limits.maxArrayElements) numbers") }
            return
        }
        room.wait()
        // The bytes after the cut start the next buffer; the filled one goes to the number thread whole.
        var bytes = spareRuns.withLock { $0.popLast() } ?? []
        bytes.reserveCapacity(Self.flushSize * 2)
        bytes.append(contentsOf: pending[cut...])
        swap(&bytes, &pending)
        bytes.removeSubrange(cut...)
        let run = NumberRun(bytes: bytes, element: element, kind: kind,
                            lastLine: currentLine - linesAfter, maxElements: limits.maxArrayElements)
        runsInFlight = true
        numbers.async { [room, overLimit, spareRuns] in
            if !run.parse() { overLimit.set() }
            let spare = run.takeBytes()
            spareRuns.withLock { $0.append(spare) }
            room.signal()
        }
        if overLimit.isSet { failLimit("<\(element.name)> holds more than \(limits.maxArrayElements) numbers") }
    }

    /// Waits for the number thread to finish every run handed to it.
    private func drain() {
        if runsInFlight { numbers.sync {} }
        runsInFlight = false
        if overLimit.isSet, let element = stack.last {
            failLimit("<\(element.name)> holds more than \(limits.maxArrayElements) numbers")
        }
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

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
            reader.malformed("entity declaration '\(entity)' refused: Collada documents need no entities (XXE and entity-expansion attacks use them)",
                        line: reader.currentLine)
        }
        handler.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let reader = ColladaSAXReader.reader(context)
            let message = error.pointee.message.map { String(cString: $0) }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "XML error \(error.pointee.code)"
            reader.malformed(message, line: Int(error.pointee.line), column: error.pointee.int2 > 0 ? Int(error.pointee.int2) : nil)
        }
        return handler
    }
}

/// A flag one thread raises and another reads.
private final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// One run of numeric text for the number thread: whitespace-separated numbers that end where the
/// bytes end, parsed into their element's buffer. `@unchecked Sendable` because the element is a
/// class the reader's thread also holds; it touches the element's number buffers and `badNumber`
/// only after draining the queue, so the two threads never use them at once. A class so the
/// bytes can be handed back for reuse without a second reference keeping them from being reused.
private final class NumberRun: @unchecked Sendable {
    private var bytes: [UInt8]
    let element: ColladaElement
    let kind: ColladaContentKind
    /// The line the run's last byte is on.
    let lastLine: Int
    let maxElements: Int

    init(bytes: [UInt8], element: ColladaElement, kind: ColladaContentKind, lastLine: Int, maxElements: Int) {
        self.bytes = bytes
        self.element = element
        self.kind = kind
        self.lastLine = lastLine
        self.maxElements = maxElements
    }

    /// The run's buffer, emptied with its capacity kept, leaving the run without it.
    func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// False when the element now holds more than `maxElements` numbers.
    func parse() -> Bool {
        bytes.withUnsafeBufferPointer { b in
            let scan: ColladaNumberScan
            switch kind {
            case .floats: scan = parse(FloatNumbers.self, b, into: \.floats)
            case .doubles: scan = parse(DoubleNumbers.self, b, into: \.doubles)
            case .ints: scan = parse(IntNumbers.self, b, into: \.ints)
            case .text: return true
            }
            if let bad = scan.badToken, element.badNumber == nil {
                let linesBelow = b[bad.upperBound...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                element.badNumber = (String(decoding: b[bad.lowerBound..<min(bad.upperBound, bad.lowerBound + 40)], as: UTF8.self),
                                     max(lastLine - linesBelow, element.line))
            }
            return element.floats.count + element.doubles.count + element.ints.count <= maxElements
        }
    }
}

extension NumberRun {
    /// The element's buffer is moved into a local for the loop: appending to a class's stored
    /// array would be checked for exclusive access at run time on every number.
    private func parse<Kind: ColladaNumberKind>(_ kind: Kind.Type, _ b: UnsafeBufferPointer<UInt8>,
                                                into buffer: ReferenceWritableKeyPath<ColladaElement, [Kind.Value]>) -> ColladaNumberScan {
        var values = element[keyPath: buffer]
        element[keyPath: buffer] = []
        let scan = ColladaNumberScan.run(Kind.self, b, into: &values)
        element[keyPath: buffer] = values
        return scan
    }
}

/// How one kind of number is parsed; a protocol so each kind gets its own specialised loop.
protocol ColladaNumberKind {
    associatedtype Value: BitwiseCopyable
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

/// The outcome of scanning one stretch of numeric text.
struct ColladaNumberScan {
    /// The first token that was not a number of the kind.
    var badToken: Range<Int>?

    static func run<Kind: ColladaNumberKind>(_ kind: Kind.Type, _ b: UnsafeBufferPointer<UInt8>,
                                             into values: inout [Kind.Value]) -> ColladaNumberScan {
        var result = ColladaNumberScan()
        var i = 0
        let n = b.count
        while true {
            while i < n && ColladaSAXReader.isSpace(b[i]) { i += 1 }
            guard i < n else { return result }
            let start = i
            if let value = Kind.parse(b, &i), i == n || ColladaSAXReader.isSpace(b[i]) {
                values.append(value)
                continue
            }
            var end = start
            while end < n && !ColladaSAXReader.isSpace(b[end]) { end += 1 }
            if result.badToken == nil { result.badToken = start..<end }
            i = end
        }
    }
}
