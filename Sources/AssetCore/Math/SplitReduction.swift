import Dispatch

/// A reduction over a long buffer, its two halves on two cores. Checking a million-triangle mesh's
/// indices (3 arrays of 3 million) and bounding its points are scans limited by memory bandwidth,
/// which one core does not use up; they run after the parallel parse, on one core, at the end of
/// every large read.
package enum SplitReduction {
    /// Below this many elements a second thread costs more than it saves (waking one is tens of
    /// microseconds; a quarter million points take about half a millisecond to bound).
    package static let threshold = 1 << 18

    /// `part` over the halves of `0..<count`, on two threads when `count` reaches `threshold`;
    /// `combine` joins the first half's result with the second's.
    package static func reduce<T>(count: Int, _ part: @Sendable (Range<Int>) -> T, _ combine: (T, T) -> T) -> T {
        guard count >= threshold else { return part(0..<count) }
        let middle = count / 2
        var halves: [T?] = [nil, nil]
        halves.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots  // each half writes only its own slot
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                slots[half] = part(half == 0 ? 0..<middle : middle..<count)
            }
        }
        return combine(halves[0]!, halves[1]!)
    }

    /// `part` over the halves of `0..<count` for its effects alone (each half writing only its own
    /// share of a buffer), on two threads when `count` reaches `threshold`.
    package static func forEachHalf(count: Int, _ part: @Sendable (Range<Int>) -> Void) {
        reduce(count: count, part, { _, _ in })
    }
}
