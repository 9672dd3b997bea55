import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fast path for big numeric arrays in usda text (`[(x, y, z), ...]`, `[0, 1, 2, ...]`): one
/// tight loop over the bytes straight into the array's storage, in the layout its kind keeps
/// (`NumberKind`: flat Doubles or Int32s, or the scene's `SIMD3<Float>` for `point3f[]`), no token
/// or value per element. Arrays from `parallelThreshold` up are cut into pieces at element
/// boundaries and parsed on every core.
///
/// It declines (returns nil) anything unusual: comments inside the array, nested groups
/// (matrices), `inf`/`nan`, elements of different sizes. The general parser then takes the array
/// and reports any error with its line and column.
enum USDANumericArrayScanner {
    struct Chunk<Element> {
        var values: [Element] = []
        var components = 0
        var elements = 0
        var newlines = 0
        /// Offset of the last newline seen, or -1.
        var lastNewline = -1
        /// Offset just past the closing `]` (or the chunk's end).
        var end = 0

        /// The counts of the next part of the same array added to these; false when its elements
        /// have another size.
        mutating func add(components: Int, elements: Int, newlines: Int, lastNewline: Int) -> Bool {
            guard self.components == 0 || components == 0 || components == self.components else { return false }
            self.components = max(self.components, components)
            self.elements += elements
            self.newlines += newlines
            if lastNewline >= 0 { self.lastNewline = lastNewline }
            return true
        }

        mutating func add(_ state: ScanState) -> Bool {
            add(components: state.components, elements: state.elements, newlines: state.newlines, lastNewline: state.lastNewline)
        }
    }

    /// Arrays at least this long (in bytes) are parsed on two threads.
    static let parallelThreshold = 1 << 20

    /// Told of text a core has scanned as array and will not read again, so a mapped file's pages
    /// can be dropped there, on the core that finished them, not all at once after the array.
    typealias Release = @Sendable (Range<Int>) -> Void

    /// `window` is how far `scanAhead` reads at a time; tests make it small.
    static func scanDoubles(_ p: UnsafeBufferPointer<UInt8>, from start: Int, maxElements: Int,
                            window: Int = aheadBytes, release: Release? = nil) -> Chunk<Double>? {
        scan(Doubles.self, p, from: start, maxElements: maxElements, window: window, release: release)
    }

    static func scanInt32s(_ p: UnsafeBufferPointer<UInt8>, from start: Int, maxElements: Int,
                           window: Int = aheadBytes, release: Release? = nil) -> Chunk<Int32>? {
        scan(Int32s.self, p, from: start, maxElements: maxElements, window: window, release: release)
    }

    /// An array of any kind, in the layout the kind keeps (`NumberKind`).
    static func scan<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, from start: Int,
                                       maxElements: Int, window: Int = aheadBytes, release: Release? = nil) -> Chunk<Kind.Element>? {
        // Arrays that close within `probeBytes` are found by their first `]`: if a comment or
        // string hid one earlier, the range parse meets the comment's or string's characters and
        // declines, so this never mis-ends an array. Longer ones are scanned ahead in windows
        // (`scanAhead`) rather than searched for `]` first: that search touched every page of a
        // 100 MB file for the first time on one core, 11-13 ms before any scanning began. Only the
        // first window is probed: an array that outlasted a window is long, and its next window
        // finds its `]` as well as a probe would (probing each was a serial first touch of 4 MB).
        var parts: [Chunk<Kind.Element>] = []
        var from = start
        while from < p.count {
            if parts.isEmpty {
                let probeEnd = min(p.count, from + probeBytes)
                if let close = firstClose(p, from..<probeEnd, inHalves: true) {
                    guard let last = scanThrough(Kind.self, p, from: from, close: close, maxElements: maxElements,
                                                 release: release) else { return nil }
                    return joined(parts + [last], maxElements: maxElements)
                }
                guard probeEnd < p.count else { return nil }
            }
            switch scanAhead(Kind.self, p, from: from, maxElements: maxElements, window: window, release: release) {
            case .closed(let chunk):
                return joined(parts + [chunk], maxElements: maxElements)
            case .continues(let chunk, let next):
                parts.append(chunk)
                from = next
                // A text that never closes must not gather more than one array may hold.
                guard parts.reduce(0, { $0 + $1.elements }) <= maxElements else { return nil }
            case .declined:
                return nil
            case .unsure:
                guard let close = firstClose(p, from..<p.count),
                      let last = scanThrough(Kind.self, p, from: from, close: close, maxElements: maxElements) else { return nil }
                return joined(parts + [last], maxElements: maxElements)
            }
        }
        return nil
    }

    /// Arrays whose `]` lies within this many bytes are scanned once it is found.
    static let probeBytes = 4 << 20

    /// The first `]` in `range`. With `inHalves`, a long range is searched in halves on two cores:
    /// the probe is the first touch of a mapped file's pages, and faulting them in is most of its
    /// time. Only for bounded ranges: the second half is searched to its end even when the first
    /// finds a `]`, which over the rest of a file would touch pages nothing else reads.
    static func firstClose(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, inHalves: Bool = false) -> Int? {
        guard !range.isEmpty, let base = p.baseAddress else { return nil }
        nonisolated(unsafe) let start = base
        let search = { @Sendable (part: Range<Int>) -> Int? in
            let from = range.lowerBound + part.lowerBound
            guard let found = memchr(start + from, Int32(UInt8(ascii: "]")), part.count) else { return nil }
            return from + (UnsafeRawPointer(found) - UnsafeRawPointer(start + from))
        }
        guard inHalves else { return search(0..<range.count) }
        return SplitReduction.reduce(count: range.count, search, { first, second in first ?? second })
    }

    /// The elements from `start` to the `]` at `close`: on every core when the stretch is long.
    static func scanThrough<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, from start: Int, close: Int,
                                              maxElements: Int, release: Release? = nil) -> Chunk<Kind.Element>? {
        if close - start >= parallelThreshold {
            let pieces = piecesOf(p, start: start, close: close)
            if pieces.count > 1 {
                guard var chunk = scanPieces(Kind.self, p, pieces, maxElements: maxElements, release: release) else { return nil }
                chunk.end = close + 1
                return chunk
            }
        }
        guard var chunk = scanRange(Kind.self, p, start..<close, maxElements: maxElements,
                                    capacity: estimatedElements(Kind.self, p, start..<close)) else { return nil }
        chunk.end = close + 1
        return chunk
    }

    /// How many numbers `range` likely holds. usda puts a comma between every two numbers of an
    /// array, inside groups and between them, so commas count numbers: counting one byte value
    /// vectorizes, where testing every byte for a number's characters did not, and the samples of
    /// a 100 MB file's pieces took 6-10 ms before the scan could start.
    static func estimatedNumbers(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        PiecewiseFill.estimated(p, range) { PiecewiseFill.occurrences(of: UInt8(ascii: ","), in: p, $0) + 1 }
    }

    /// Room for the elements `range` likely holds: numbers, or groups for vector kinds.
    static func estimatedElements<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        estimatedNumbers(p, range) / max(Kind.groupSize, 1) + 16
    }

    /// The array's bytes cut into pieces of about `pieceBytes` (at least eight), each cut moved
    /// forward to the start of an element. Many more pieces than cores keep every core busy to
    /// the end: with a few, one core was left with a whole extra piece, or with the denser half
    /// (a 3 MB array in three pieces left one core idle for a third of it).
    /// A cut looks for its element start only `cutSearchBytes` far: in an array an element is
    /// never that long, and past an array's end (`scanAhead` cuts text it has not seen) the
    /// search must not read on through megabytes; where none is found the two pieces stay one.
    static func piecesOf(_ p: UnsafeBufferPointer<UInt8>, start: Int, close: Int) -> [Range<Int>] {
        let tuples = startsWithGroup(p, start: start, close: close)
        let count = min(max((close - start) / pieceBytes, minimumPieces), 64)
        var cuts = [start]
        for k in 1..<count {
            let from = max(start + (close - start) * k / count, cuts[cuts.count - 1] + 1)
            if let cut = elementStart(p, from: from, limit: min(close, from + cutSearchBytes), tuples: tuples) { cuts.append(cut) }
        }
        cuts.append(close)
        return (0..<(cuts.count - 1)).map { cuts[$0]..<cuts[$0 + 1] }
    }

    static let cutSearchBytes = 4096

    /// Pieces a parallel array is cut into at least, four per core here.
    static let minimumPieces = 8

    /// Whether the first element after `start` is a parenthesised group.
    static func startsWithGroup(_ p: UnsafeBufferPointer<UInt8>, start: Int, close: Int) -> Bool {
        var first = start
        while first < close, p[first] == 0x20 || p[first] == 0x0A || p[first] == 0x09 || p[first] == 0x0D { first += 1 }
        return first < close && p[first] == UInt8(ascii: "(")
    }

    /// Where the next element starts at or after `from` (its `(`, or the `,` before a scalar),
    /// looking no further than `limit`.
    static func elementStart(_ p: UnsafeBufferPointer<UInt8>, from: Int, limit: Int, tuples: Bool) -> Int? {
        guard from < limit, let base = p.baseAddress,
              let found = memchr(base + from, Int32(tuples ? UInt8(ascii: "(") : UInt8(ascii: ",")), limit - from) else { return nil }
        return from + (UnsafeRawPointer(found) - UnsafeRawPointer(base + from))
    }

    /// Small enough that the cores finish within a piece of each other, big enough that each
    /// piece's density samples (24 KB) are a small share of its bytes.
    static let pieceBytes = 1 << 20

    /// Scans the pieces on every core straight into one buffer, each into its own stretch sized
    /// by its estimate, then closes the gaps between the stretches: no piece's values are written
    /// twice into fresh memory, as joining separately scanned pieces did. A piece that outgrows
    /// its stretch sends the array to `scanPiecesApart`.
    private static func scanPieces<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, _ pieces: [Range<Int>],
                                                     maxElements: Int, release: Release?) -> Chunk<Kind.Element>? {
        nonisolated(unsafe) let bytes = p
        let capacities = PiecewiseFill.capacities(count: pieces.count) { estimatedElements(Kind.self, bytes, pieces[$0]) }
        var (values, filled) = PiecewiseFill.fill(capacities: capacities) {
            (k, stretch: UnsafeMutableBufferPointer<Kind.Element>) -> PiecewiseFill.Piece<(stop: ScanStop, state: ScanState)> in
            var state = ScanState(i: pieces[k].lowerBound)
            var written = 0
            let stop = scanInto(Kind.self, UnsafeBufferPointer(rebasing: bytes[..<pieces[k].upperBound]), maxElements: maxElements,
                                stretch, &written, &state)
            release?(pieces[k])  // inside the array: every piece ends before its `]`
            return PiecewiseFill.Piece(written: written, fitted: stop == .finished, report: (stop, state))
        }
        let results = filled.map(\.report)
        if results.contains(where: { $0.stop == .declined }) { return nil }
        if results.contains(where: { $0.stop == .full }) {
            values = []
            return scanPiecesApart(Kind.self, p, pieces, maxElements: maxElements)
        }
        var chunk = Chunk<Kind.Element>()
        for result in results.map(\.state) {
            guard chunk.add(result) else { return nil }
        }
        guard chunk.elements <= maxElements else { return nil }
        chunk.values = values
        return chunk
    }

    /// The pieces scanned each into its own growing buffer, then joined: for the rare array whose
    /// density the samples misjudged.
    private static func scanPiecesApart<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, _ pieces: [Range<Int>],
                                                          maxElements: Int) -> Chunk<Kind.Element>? {
        var chunk = Chunk<Kind.Element>()
        for piece in pieces {
            guard let part = scanRange(Kind.self, p, piece, maxElements: maxElements, capacity: estimatedElements(Kind.self, p, piece)) else { return nil }
            guard chunk.add(components: part.components, elements: part.elements, newlines: part.newlines,
                            lastNewline: part.lastNewline), chunk.elements <= maxElements else { return nil }
            chunk.values.append(contentsOf: part.values)
        }
        return chunk
    }

    /// Where a scan is, so one that fills its buffer can go on in a bigger one.
    struct ScanState {
        var i: Int
        var components = 0, elements = 0, newlines = 0, lastNewline = -1
        /// Numbers in the current group.
        var count = 0
        var inGroup = false
    }

    /// `closed`: a `]` ended the array (only `scanAhead` hands a scan bytes past one); `skipped`:
    /// a piece past an array's end that was never scanned.
    enum ScanStop { case finished, closed, full, declined, skipped }

    /// Parses the elements in `range`; nil at the first byte that is not part of a number, a group
    /// or a separator. Numbers are written straight into the array's uninitialized storage, sized
    /// by `capacity`: no per-number append (with its uniqueness and capacity checks). If the
    /// estimate was short, the values so far move once into a buffer twice the size.
    private static func scanRange<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>,
                                                    _ range: Range<Int>, maxElements: Int, capacity: Int) -> Chunk<Kind.Element>? {
        let slice = UnsafeBufferPointer(rebasing: p[..<range.upperBound])
        var state = ScanState(i: range.lowerBound)
        var stop = ScanStop.full
        var values: [Kind.Element] = []
        var size = max(capacity, 16)
        while stop == .full {
            let previous = values
            values = [Kind.Element](unsafeUninitializedCapacity: size) { buffer, initialized in
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: size * MemoryLayout<Kind.Element>.stride)
                var written = buffer.initialize(fromContentsOf: previous)
                stop = scanInto(Kind.self, slice, maxElements: maxElements, buffer, &written, &state)
                initialized = written
            }
            size *= 2
        }
        guard stop == .finished else { return nil }
        var chunk = Chunk<Kind.Element>()
        chunk.values = values
        chunk.components = state.components
        chunk.elements = state.elements
        chunk.newlines = state.newlines
        chunk.lastNewline = state.lastNewline
        return chunk
    }

    /// The scan itself, as one flat loop over locals (a nested function capturing them would make
    /// Swift check exclusive access dynamically on every byte); `state` is read once and written
    /// back when it stops.
    @inline(__always)
    static func scanInto<Kind: NumberKind>(_ kind: Kind.Type, _ slice: UnsafeBufferPointer<UInt8>, maxElements: Int,
                                           _ out: UnsafeMutableBufferPointer<Kind.Element>, _ written: inout Int,
                                           _ state: inout ScanState) -> ScanStop {
        // Numbers are written through the elements' memory seen as numbers: the same memory for
        // flat kinds, four Floats per `SIMD3<Float>` for triples.
        out.withMemoryRebound(to: Kind.Number.self) { numbers in
            scanNumbers(Kind.self, slice, maxElements: maxElements, numbers, &written, &state)
        }
    }

    @inline(__always)
    private static func scanNumbers<Kind: NumberKind>(_ kind: Kind.Type, _ slice: UnsafeBufferPointer<UInt8>, maxElements: Int,
                                                      _ out: UnsafeMutableBufferPointer<Kind.Number>, _ written: inout Int,
                                                      _ state: inout ScanState) -> ScanStop {
        let end = slice.count
        // Constant for each kind, so each specialised loop keeps only its own branch.
        let vectors = Kind.groupSize > 0, lanes = Kind.lanes, groupSize = Kind.groupSize
        let capacity = out.count / lanes
        var i = state.i, components = state.components, elements = state.elements
        var newlines = state.newlines, lastNewline = state.lastNewline, count = state.count, inGroup = state.inGroup
        // Numbers written, for flat kinds; a vector kind has written exactly `elements`.
        var n = written
        defer {
            state = ScanState(i: i, components: components, elements: elements, newlines: newlines,
                              lastNewline: lastNewline, count: count, inGroup: inGroup)
            written = vectors ? elements : n
        }
        while true {
            // Separators: spaces, commas, tabs, newlines.
            while i < end {
                let c = slice[i]
                if c == 0x20 || c == 0x2C || c == 0x09 || c == 0x0D { i += 1 }
                else if c == 0x0A { newlines += 1; lastNewline = i; i += 1 }
                else { break }
            }
            if i == end { return inGroup ? .declined : .finished }
            let c = slice[i]
            if c == UInt8(ascii: "(") {
                guard !Kind.scalarsOnly, !inGroup else { return .declined }
                if vectors && elements == capacity { return .full }
                inGroup = true
                count = 0
                i += 1
                continue
            }
            if c == UInt8(ascii: "]") { return inGroup ? .declined : .closed }
            if c == UInt8(ascii: ")") {
                guard inGroup, count > 0 else { return .declined }
                if vectors {
                    guard count == groupSize else { return .declined }
                    var lane = count
                    while lane < lanes { out[elements &* lanes &+ lane] = Kind.padding; lane += 1 }
                }
                inGroup = false
                i += 1
            } else if vectors {
                // A vector kind's numbers are only ever inside its groups.
                guard inGroup, count < groupSize, let value = Kind.parse(slice, &i) else { return .declined }
                out[elements &* lanes &+ count] = value
                count += 1
                continue
            } else {
                if n == out.count { return .full }
                guard let value = Kind.parse(slice, &i) else { return .declined }
                out[n] = value
                n += 1
                count += 1
                if inGroup { continue }
                count = 1
            }
            // One element finished.
            if components == 0 { components = count } else if count != components { return .declined }
            elements += 1
            if elements > maxElements { return .declined }
        }
    }
}
