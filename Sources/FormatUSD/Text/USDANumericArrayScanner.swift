import AssetCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fast path for big numeric arrays in usda text (`[(x, y, z), ...]`, `[0, 1, 2, ...]`): one
/// tight loop over the bytes into one flat buffer, no token or value per element. Arrays from
/// `parallelThreshold` up are split in two at an element boundary and parsed on both cores.
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
    }

    /// Arrays at least this long (in bytes) are parsed on two threads.
    static let parallelThreshold = 1 << 20

    /// How one element kind is parsed; a protocol rather than a closure so each kind gets its own
    /// specialised, inlined loop.
    protocol NumberKind: SendableMetatype {
        associatedtype Element: Sendable
        static var scalarsOnly: Bool { get }
        static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Element?
    }

    enum Doubles: NumberKind {
        static var scalarsOnly: Bool { false }
        @inline(__always) static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Double? {
            DecimalNumberParser.parseDouble(p, &i)
        }
    }

    enum Int32s: NumberKind {
        static var scalarsOnly: Bool { true }
        @inline(__always) static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int32? {
            DecimalNumberParser.parseInt32(p, &i)
        }
    }

    static func scanDoubles(_ p: UnsafeBufferPointer<UInt8>, from start: Int, maxElements: Int) -> Chunk<Double>? {
        scan(Doubles.self, p, from: start, maxElements: maxElements)
    }

    static func scanInt32s(_ p: UnsafeBufferPointer<UInt8>, from start: Int, maxElements: Int) -> Chunk<Int32>? {
        scan(Int32s.self, p, from: start, maxElements: maxElements)
    }

    private static func scan<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, from start: Int,
                                               maxElements: Int) -> Chunk<Kind.Element>? {
        // The first `]`: if a comment or string hid one earlier, the range parse below meets the
        // comment's or string's characters and declines, so this never mis-ends an array.
        guard start < p.count, let found = memchr(p.baseAddress! + start, Int32(UInt8(ascii: "]")), p.count - start) else { return nil }
        let close = start + (UnsafeRawPointer(found) - UnsafeRawPointer(p.baseAddress! + start))
        if close - start >= parallelThreshold, let split = splitPoint(p, start: start, close: close) {
            var halves: [Chunk<Kind.Element>?] = [nil, nil]
            halves.withUnsafeMutableBufferPointer { out in
                let ranges = [start..<split, split..<close]
                // The first half's buffer is sized for the whole array, so the second joins it
                // without a reallocation.
                let capacities = [estimatedNumbers(p, start..<close), estimatedNumbers(p, split..<close)]
                // Each iteration reads the shared bytes and writes only its own slot.
                nonisolated(unsafe) let slots = out
                nonisolated(unsafe) let bytes = p
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    slots[k] = scanRange(Kind.self, bytes, ranges[k], maxElements: maxElements, capacity: capacities[k])
                }
            }
            // Moved out of `halves`, so the first buffer is uniquely held and grows in place.
            let firstHalf = halves[0], second = halves[1]
            halves = []
            guard var first = firstHalf, let second else { return nil }
            guard first.components == second.components || first.elements == 0 || second.elements == 0 else { return nil }
            first.components = max(first.components, second.components)
            first.values.append(contentsOf: second.values)
            first.elements += second.elements
            guard first.elements <= maxElements else { return nil }
            if second.lastNewline >= 0 { first.lastNewline = second.lastNewline }
            first.newlines += second.newlines
            first.end = close + 1
            return first
        }
        guard var chunk = scanRange(Kind.self, p, start..<close, maxElements: maxElements,
                                    capacity: estimatedNumbers(p, start..<close)) else { return nil }
        chunk.end = close + 1
        return chunk
    }

    /// How many numbers `range` likely holds: the densest of three 8 KB samples (start, middle,
    /// end; numbers often grow longer or shorter along an array) scaled to the whole, a little
    /// over, so the buffer is allocated once. Never more than the bytes can hold (a digit and a
    /// separator each), so a short array of huge claims reserves nothing unreasonable.
    static func estimatedNumbers(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        let sample = min(range.count, 8 << 10)
        guard sample > 0 else { return 0 }
        var densest = 0
        for from in [range.lowerBound, range.lowerBound + (range.count - sample) / 2, range.upperBound - sample] {
            var numbers = 0
            var inNumber = false
            for i in from..<(from + sample) {
                let c = p[i]
                let numeric = (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E || c == 0x2B || c == 0x65 || c == 0x45
                if numeric && !inNumber { numbers += 1 }
                inNumber = numeric
            }
            densest = max(densest, numbers)
        }
        let estimate = densest * range.count / sample + densest * range.count / sample / 32 + 16
        return min(estimate, range.count / 2 + 1)
    }

    /// Middle of the array, moved forward to the start of an element.
    private static func splitPoint(_ p: UnsafeBufferPointer<UInt8>, start: Int, close: Int) -> Int? {
        var first = start
        while first < close, p[first] == 0x20 || p[first] == 0x0A || p[first] == 0x09 || p[first] == 0x0D { first += 1 }
        let tuples = first < close && p[first] == UInt8(ascii: "(")
        var i = start + (close - start) / 2
        if tuples {
            while i < close && p[i] != UInt8(ascii: "(") { i += 1 }
        } else {
            while i < close && p[i] != UInt8(ascii: ",") { i += 1 }
        }
        return i < close ? i : nil
    }

    /// Where a scan is, so one that fills its buffer can go on in a bigger one.
    private struct ScanState {
        var i: Int
        var components = 0, elements = 0, newlines = 0, lastNewline = -1
        /// Numbers in the current group.
        var count = 0
        var inGroup = false
    }

    private enum ScanStop { case finished, full, declined }

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
    private static func scanInto<Kind: NumberKind>(_ kind: Kind.Type, _ slice: UnsafeBufferPointer<UInt8>, maxElements: Int,
                                                   _ out: UnsafeMutableBufferPointer<Kind.Element>, _ written: inout Int,
                                                   _ state: inout ScanState) -> ScanStop {
        let end = slice.count
        var i = state.i, components = state.components, elements = state.elements
        var newlines = state.newlines, lastNewline = state.lastNewline, count = state.count, inGroup = state.inGroup
        var n = written
        defer {
            state = ScanState(i: i, components: components, elements: elements, newlines: newlines,
                              lastNewline: lastNewline, count: count, inGroup: inGroup)
            written = n
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
                inGroup = true
                count = 0
                i += 1
                continue
            }
            if c == UInt8(ascii: ")") {
                guard inGroup, count > 0 else { return .declined }
                inGroup = false
                i += 1
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
