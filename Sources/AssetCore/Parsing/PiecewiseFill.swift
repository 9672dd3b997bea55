import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Fills one array from pieces of a text parsed on every core at once.
///
/// Each piece gets its own stretch of one buffer, sized by the caller's estimate of what the piece
/// holds, and scans into it; once all are done the gaps between the stretches are closed. Parsing
/// each piece into an array of its own and joining them wrote every number but the first piece's
/// twice into fresh memory, which on this kind of machine costs about as much as parsing it.
package enum PiecewiseFill {
    /// What one piece's scan reports: how much of its stretch it filled, whether it fitted (false
    /// when it ran out of room or stopped for any other reason), and anything else it found.
    package struct Piece<Report> {
        package var written: Int
        package var fitted: Bool
        package var report: Report

        package init(written: Int, fitted: Bool, report: Report) {
            self.written = written
            self.fitted = fitted
            self.report = report
        }
    }

    /// `estimate(k)` for each of `count` pieces, on every core when there are several: estimates
    /// sample each piece's text, which is the first touch of its pages, and on one core that was a
    /// few milliseconds of a 100 MB file's read before the parallel scan could start.
    package static func capacities(count: Int, _ estimate: @Sendable (Int) -> Int) -> [Int] {
        guard count > 4 else { return (0..<count).map(estimate) }
        return [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: count) { k in out[k] = estimate(k) }
            initialized = count
        }
    }

    /// Runs `scan(k, stretch)` for every piece on every core. The values are the pieces' in order
    /// when every piece fitted, and empty otherwise (the caller then takes a slower path).
    package static func fill<Element: BitwiseCopyable, Report>(
        capacities: [Int], scan: @Sendable (Int, UnsafeMutableBufferPointer<Element>) -> Piece<Report>
    ) -> (values: [Element], pieces: [Piece<Report>]) {
        fill(capacities: capacities, keeping: { $0.allSatisfy(\.fitted) ? $0.count : nil }, scan: scan)
    }

    /// `fill` whose values are those of the first `keeping(pieces)` pieces (none when it says
    /// nil): for a scan that learns only from the pieces where its text ends.
    package static func fill<Element: BitwiseCopyable, Report>(
        capacities: [Int], keeping: ([Piece<Report>]) -> Int?,
        scan: @Sendable (Int, UnsafeMutableBufferPointer<Element>) -> Piece<Report>
    ) -> (values: [Element], pieces: [Piece<Report>]) {
        let capacities = capacities.map { max($0, 1) }
        let offsets = capacities.indices.map { capacities[..<$0].reduce(0, +) }
        let total = capacities.reduce(0, +)
        var pieces = [Piece<Report>?](repeating: nil, count: capacities.count)
        let values = [Element](unsafeUninitializedCapacity: total) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(UnsafeMutableRawPointer(base), byteCount: total * MemoryLayout<Element>.stride)
            let compaction = InOrderCompaction(pieces: capacities.count)
            pieces.withUnsafeMutableBufferPointer { slots in
                // Each iteration writes only its own stretch and its own slot.
                nonisolated(unsafe) let out = base
                nonisolated(unsafe) let slots = slots
                DispatchQueue.concurrentPerform(iterations: capacities.count) { k in
                    let piece = scan(k, UnsafeMutableBufferPointer(start: out + offsets[k], count: capacities[k]))
                    slots[k] = piece
                    compaction.finished(k, written: piece.written) { piece, to, count in
                        // Down onto a range that may overlap its own, which moveInitialize allows.
                        if offsets[piece] != to { (out + to).moveInitialize(from: out + offsets[piece], count: count) }
                    }
                }
            }
            guard let kept = keeping(pieces.map { $0! }) else { return }
            // Every piece was moved into place as it finished; those past `kept` lie beyond the count.
            initialized = pieces[..<kept].reduce(0) { $0 + $1!.written }
            let count = initialized
            if kept < capacities.count { dropPages(from: UnsafeMutableRawPointer(base + count), to: UnsafeMutableRawPointer(base + total)) }
        }
        return (values, pieces.map { $0! })
    }

    /// Closes the gaps between the stretches while pieces are still being scanned: whichever core
    /// finishes a piece moves every finished piece from the first unmoved one on, in order, so the
    /// moving (a whole array's worth of memmove, on one core after the scan until this) overlaps
    /// the other core's scanning. A piece's destination ends at or before its own stretch does
    /// (earlier pieces wrote no more than their capacities), so it never reaches a later piece's
    /// stretch, which may still be being written; earlier pieces' stretches were moved already.
    private final class InOrderCompaction: Sendable {
        private struct State {
            var written: [Int?]
            /// The first piece not yet moved, and where it goes.
            var next = 0
            var count = 0
            /// One core moves at a time; a piece finished meanwhile is taken up by that core.
            var moving = false
        }
        private let state: Locked<State>

        init(pieces: Int) {
            state = Locked(State(written: Array(repeating: nil, count: pieces)))
        }

        func finished(_ piece: Int, written: Int, move: (_ piece: Int, _ to: Int, _ count: Int) -> Void) {
            let claimed = state.withLock { s -> Bool in
                s.written[piece] = written
                guard !s.moving else { return false }
                s.moving = true
                return true
            }
            guard claimed else { return }
            while true {
                let batch = state.withLock { s -> [(piece: Int, to: Int, count: Int)] in
                    var moves: [(piece: Int, to: Int, count: Int)] = []
                    while s.next < s.written.count, let count = s.written[s.next] {
                        moves.append((s.next, s.count, count))
                        s.count += count
                        s.next += 1
                    }
                    if moves.isEmpty { s.moving = false }
                    return moves
                }
                if batch.isEmpty { return }
                for m in batch { move(m.piece, m.to, m.count) }
            }
        }
    }

    /// Gives back the memory of pieces scanned and not kept: it stays the array's unused capacity,
    /// and on a 100 MB usda the pieces a core had begun past each array's end held about 10 MB.
    /// Only whole pages go; a later write to one gets a fresh zeroed page.
    private static func dropPages(from start: UnsafeMutableRawPointer, to end: UnsafeMutableRawPointer) {
        #if os(Linux)
        let page = Int(getpagesize())
        let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
        let last = Int(bitPattern: end) & ~(page - 1)
        guard last > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, last - first, MADV_DONTNEED)
        #endif
    }

    /// How many tokens `range` likely holds, to size a piece's stretch: the densest of three 8 KB
    /// samples (start, middle, end; numbers often grow longer or shorter along an array) scaled to
    /// the whole, a little over. Never more than the bytes can hold (a byte and a separator each),
    /// so a short text of huge claims reserves nothing unreasonable. `count` gives the tokens in
    /// one sample; inlinable so each reader's counter is inlined into its loop.
    @inlinable
    package static func estimated(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                  count: (Range<Int>) -> Int) -> Int {
        let sample = min(range.count, 8 << 10)
        guard sample > 0 else { return 0 }
        var densest = 0
        for from in [range.lowerBound, range.lowerBound + (range.count - sample) / 2, range.upperBound - sample] {
            densest = max(densest, count(from..<(from + sample)))
        }
        let estimate = densest * range.count / sample + densest * range.count / sample / 32 + 16
        return min(estimate, range.count / 2 + 1)
    }

    /// `estimated` counting runs of bytes that pass `isTokenByte`.
    @inlinable
    package static func estimatedTokens(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                        isTokenByte: (UInt8) -> Bool) -> Int {
        estimated(bytes, range) { sample in
            var tokens = 0
            var inToken = false
            for i in sample {
                let token = isTokenByte(bytes[i])
                if token && !inToken { tokens += 1 }
                inToken = token
            }
            return tokens
        }
    }

    /// How many times `byte` occurs in `range`. A `while` loop over a raw pointer with wrapping
    /// arithmetic: written as a `for` over the range, the range's overflow trap kept the compiler
    /// from vectorizing it, and it ran eight times slower (1.5 against 10 GB/s here).
    @inlinable
    package static func occurrences(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress, !range.isEmpty else { return 0 }
        let start = base + range.lowerBound
        let count = range.count
        var found = 0
        var i = 0
        while i < count {
            found &+= start[i] == byte ? 1 : 0
            i &+= 1
        }
        return found
    }
}
