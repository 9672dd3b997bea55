import Testing
@testable import AssetCore

@Suite struct SplitReductionTests {
    /// Split in halves or not, a reduction gives what one pass over the whole gives, and the halves
    /// combine in order (first with second).
    @Test func halvesAgreeWithOnePass() {
        for count in [0, 1, 1000, SplitReduction.threshold - 1, SplitReduction.threshold, 3 * SplitReduction.threshold + 7] {
            let values = (0..<count).map { Int32(truncatingIfNeeded: ($0 &* 7919) % 100_003) - 50_000 }
            let split = values.withUnsafeBufferPointer { buffer in
                nonisolated(unsafe) let buffer = buffer
                return SplitReduction.reduce(count: buffer.count, { range in
                    (buffer[range].reduce(0) { $0 + Int($1) }, buffer[range].max() ?? .min, [range.lowerBound])
                }, { ($0.0 + $1.0, max($0.1, $1.1), $0.2 + $1.2) })
            }
            #expect(split.0 == values.reduce(0) { $0 + Int($1) }, "sum of \(count)")
            #expect(split.1 == (values.max() ?? .min), "max of \(count)")
            #expect(split.2 == (count >= SplitReduction.threshold ? [0, count / 2] : [0]), "halves of \(count) in order")
        }
    }

    /// Each index is visited exactly once, split or not.
    @Test func eachHalfCoversEveryIndexOnce() {
        for count in [0, 5, SplitReduction.threshold, SplitReduction.threshold + 1] {
            var visits = [UInt8](repeating: 0, count: count)
            visits.withUnsafeMutableBufferPointer { slots in
                nonisolated(unsafe) let slots = slots  // the halves write apart
                SplitReduction.forEachHalf(count: count) { half in
                    for i in half { slots[i] &+= 1 }
                }
            }
            #expect(visits.allSatisfy { $0 == 1 }, "\(count) elements")
        }
    }

    /// A mesh's index check finds the same highest index whether or not it splits the array.
    @Test func highestIndexOfALongArray() {
        var indices = [Int32](repeating: 5, count: SplitReduction.threshold * 2)
        indices[indices.count - 3] = 99
        #expect(Mesh.highest(indices) == 99)
        indices[10] = -1  // negative counts as past every valid index
        #expect(Mesh.highest(indices) == Int(UInt32.max))
    }
}
