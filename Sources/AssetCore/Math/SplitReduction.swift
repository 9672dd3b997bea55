import Dispatch

/// A reduction over a long buffer, its two halves on two cores. Checking a million-triangle mesh's
/// indices (3 arrays of 3 million) and bounding its points are scans limited by memory bandwidth,
/// which one core does not use up; they run after the parallel parse, on one core, at the end of
/// every large read.
package enum SplitReduction {
    /// Below this many elements a second thread costs more than it saves (waking one is tens of
    /// microseconds; a quarter million points take about half a millisecond to bound).
    @usableFromInline package static let threshold = 1 << 18

    /// `part` over the halves of `0..<count`, on two threads when `count` reaches `threshold`;
    /// `combine` joins the first half's result with the second's.
    @inlinable package static func reduce<T>(count: Int, _ part: @Sendable (Range<Int>) -> T, _ combine: (T, T) -> T) -> T {
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

    /// `transform` of every element, in order, the two halves on two cores when `array` is long
    /// enough (specialised for the element types the renderer maps: a generic closure per element was slower than one core): the renderer's per-point and per-corner maps (placing points and normals,
    /// projecting to clip space, picking corner indices) are a third of a large thumbnail's time
    /// when made on one core.
    @_specialize(where T == SIMD3<Float>, U == SIMD3<Float>)
    @_specialize(where T == SIMD3<Double>, U == SIMD3<Float>)
    @_specialize(where T == SIMD3<Float>, U == SIMD4<Float>)
    @_specialize(where T == UInt32, U == UInt32)
    @_specialize(where T == UInt32, U == Int32)
    package static func map<T, U>(_ array: [T], _ transform: @Sendable (T) -> U) -> [U] {
        guard array.count >= threshold else { return array.map(transform) }
        return [U](unsafeUninitializedCapacity: array.count) { out, initialized in
            HugePages.prefault(UnsafeMutableRawPointer(out.baseAddress), byteCount: array.count * MemoryLayout<U>.stride)
            nonisolated(unsafe) let out = out
            array.withUnsafeBufferPointer { input in
                nonisolated(unsafe) let input = input
                forEachHalf(count: input.count) { range in
                    for i in range { (out.baseAddress! + i).initialize(to: transform(input[i])) }
                }
            }
            initialized = array.count
        }
    }

    /// `part` over the halves of `0..<count` for its effects alone (each half writing only its own
    /// share of a buffer), on two threads when `count` reaches `threshold`.
    @inlinable package static func forEachHalf(count: Int, _ part: @Sendable (Range<Int>) -> Void) {
        reduce(count: count, part, { _, _ in })
    }
}
