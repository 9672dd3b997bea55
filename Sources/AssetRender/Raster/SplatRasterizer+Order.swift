import AssetCore
import Dispatch

/// The splats put in drawing order: sorted front to back by view distance, copied into that order
/// so the blend reads them one after another, and listed per band of rows. Each step runs on both
/// cores and keeps ties in drawing order, so the picture is the same whatever the split.
extension SplatRasterizer {
    /// The positions of the projected splats in increasing view depth, ties in drawing order: a
    /// stable LSD radix sort of the distances' bit patterns (positive floats order as their bits
    /// do), a byte a pass, each pass's halves counted and scattered on two cores (the first half's
    /// splats before the second's in every bucket). A byte that every key shares is passed over.
    static func frontToBack(keys: consuming [UInt32], positions: consuming [Int32]) -> [Int32] {
        var keys = keys, order = positions
        let n = keys.count
        // Scratch the first pass writes whole before any read.
        var keys2 = [UInt32](unsafeUninitializedCapacity: n) { $1 = n }, order2 = [Int32](unsafeUninitializedCapacity: n) { $1 = n }
        let halves = n >= SplitReduction.threshold ? 2 : 1, middle = n / 2
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            // counts[half * 256 + byte]
            var counts = [Int](repeating: 0, count: 2 * 256)
            keys.withUnsafeBufferPointer { keys in
            counts.withUnsafeMutableBufferPointer { counts in
                nonisolated(unsafe) let (keys, counts) = (keys, counts)
                DispatchQueue.concurrentPerform(iterations: halves) { half in
                    let range = halves == 1 ? 0..<n : half == 0 ? 0..<middle : middle..<n
                    let base = half * 256
                    for k in range { counts[base + Int((keys[k] >> shift) & 0xFF)] += 1 }
                }
            }}
            if (0..<256).contains(where: { counts[$0] + counts[256 + $0] == n }) { continue }  // one bucket: the pass changes nothing
            // Where each half's share of each bucket starts.
            var next = [Int](repeating: 0, count: 2 * 256)
            var running = 0
            for byte in 0..<256 {
                next[byte] = running; running += counts[byte]
                next[256 + byte] = running; running += counts[256 + byte]
            }
            keys.withUnsafeBufferPointer { keys in
            order.withUnsafeBufferPointer { order in
            keys2.withUnsafeMutableBufferPointer { keys2 in
            order2.withUnsafeMutableBufferPointer { order2 in
                nonisolated(unsafe) let (keys, order, keys2, order2, starts) = (keys, order, keys2, order2, next)
                DispatchQueue.concurrentPerform(iterations: halves) { half in
                    let range = halves == 1 ? 0..<n : half == 0 ? 0..<middle : middle..<n
                    var next = Array(starts[(half * 256)..<(half * 256 + 256)])
                    next.withUnsafeMutableBufferPointer { next in
                        for k in range {
                            let key = keys[k], bucket = Int((key >> shift) & 0xFF)
                            let at = next[bucket]
                            keys2[at] = key
                            order2[at] = order[k]
                            next[bucket] = at + 1
                        }
                    }
                }
            }}}}
            swap(&keys, &keys2)
            swap(&order, &order2)
        }
        return order
    }

    /// The splats at `order`'s positions, one after another, copied on both cores.
    static func gathered(_ splats: [Splat2D], in order: [Int32]) -> [Splat2D] {
        [Splat2D](unsafeUninitializedCapacity: order.count) { out, initialized in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: order.count * MemoryLayout<Splat2D>.stride)
            nonisolated(unsafe) let out = out
            splats.withUnsafeBufferPointer { splats in
            order.withUnsafeBufferPointer { order in
                nonisolated(unsafe) let (splats, order) = (splats, order)
                SplitReduction.forEachHalf(count: order.count) { range in
                    for k in range { (out.baseAddress! + k).initialize(to: splats[Int(order[k])]) }
                }
            }}
            initialized = order.count
        }
    }

    /// The bands of rows of the picture: band b holds rows `b * height / bands ..< (b + 1) * height / bands`.
    struct Bands {
        let count: Int
        /// The band each row is in.
        let ofRow: [Int]

        init(height: Int, count: Int) {
            self.count = count
            var ofRow = [Int](repeating: 0, count: height)
            for b in 0..<count { for row in Self.rows(b, height: height, count: count) { ofRow[row] = b } }
            self.ofRow = ofRow
        }

        static func rows(_ band: Int, height: Int, count: Int) -> Range<Int> {
            (band * height / count)..<((band + 1) * height / count)
        }
    }

    /// For each band of rows, the splats whose footprint reaches it, front to back: one list after
    /// another in `members` (positions in `splats`, rising), band b's from `starts[b]` to
    /// `starts[b + 1]`. Made once, on both cores, so a band walks its own splats instead of
    /// testing every one.
    func bandLists(_ splats: [Splat2D], bands: Bands) -> (starts: [Int], members: [Int32]) {
        let n = splats.count, count = bands.count
        let halves = n >= SplitReduction.threshold ? 2 : 1, middle = n / 2
        // counts[half * count + band]
        var counts = [Int](repeating: 0, count: 2 * count)
        splats.withUnsafeBufferPointer { splats in
        bands.ofRow.withUnsafeBufferPointer { ofRow in
        counts.withUnsafeMutableBufferPointer { counts in
            nonisolated(unsafe) let (splats, ofRow, counts) = (splats, ofRow, counts)
            DispatchQueue.concurrentPerform(iterations: halves) { half in
                let range = halves == 1 ? 0..<n : half == 0 ? 0..<middle : middle..<n
                let base = half * count
                for k in range {
                    for b in ofRow[Int(splats[k].top)]...ofRow[Int(splats[k].bottom)] { counts[base + b] += 1 }
                }
            }
        }}}
        var starts = [Int](repeating: 0, count: count + 1)
        var next = [Int](repeating: 0, count: 2 * count)
        for b in 0..<count {
            next[b] = starts[b]
            next[count + b] = starts[b] + counts[b]
            starts[b + 1] = starts[b] + counts[b] + counts[count + b]
        }
        var members = [Int32](repeating: 0, count: starts[count])
        splats.withUnsafeBufferPointer { splats in
        bands.ofRow.withUnsafeBufferPointer { ofRow in
        members.withUnsafeMutableBufferPointer { members in
            nonisolated(unsafe) let (splats, ofRow, members, firsts) = (splats, ofRow, members, next)
            DispatchQueue.concurrentPerform(iterations: halves) { half in
                let range = halves == 1 ? 0..<n : half == 0 ? 0..<middle : middle..<n
                var next = Array(firsts[(half * count)..<(half * count + count)])
                next.withUnsafeMutableBufferPointer { next in
                    for k in range {
                        for b in ofRow[Int(splats[k].top)]...ofRow[Int(splats[k].bottom)] {
                            members[next[b]] = Int32(k)
                            next[b] += 1
                        }
                    }
                }
            }
        }}}
        return (starts, members)
    }
}
