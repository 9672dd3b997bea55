import Foundation
import Testing
@testable import AssetCore
import AssetTestSupport

@Suite struct PiecewiseFillTests {
    /// Pieces finish in any order and are moved into place as they do (`InOrderCompaction`); the
    /// values must be every kept piece's, in piece order, with nothing of the gaps between them.
    @Test func piecesFinishingInAnyOrderJoinInPieceOrder() {
        var generator = SeededGenerator(seed: 32)
        for round in 0..<20 {
            let count = Int.random(in: 1...120, using: &generator)
            let capacities = (0..<count).map { _ in Int.random(in: 0...3000, using: &generator) }
            // Written: anything up to the capacity (fill makes a capacity of 0 one).
            let written = capacities.map { Int.random(in: 0...max($0, 1), using: &generator) }
            let delays = (0..<count).map { _ in UInt32.random(in: 0...300, using: &generator) }
            let (values, pieces) = PiecewiseFill.fill(capacities: capacities) { (k, stretch: UnsafeMutableBufferPointer<Int32>) in
                usleep(delays[k])  // pieces finish out of order
                for i in 0..<written[k] { stretch[i] = Int32(k * 10_000 + i) }
                return PiecewiseFill.Piece(written: written[k], fitted: true, report: k)
            }
            let expected = (0..<count).flatMap { k in (0..<written[k]).map { Int32(k * 10_000 + $0) } }
            #expect(values == expected, "round \(round): \(count) pieces")
            #expect(pieces.map(\.report) == Array(0..<count))
        }
    }

    /// `keeping` says how many leading pieces count: later pieces, moved or not, are left out; a
    /// piece that did not fit leaves no values at all.
    @Test func onlyKeptPiecesCount() {
        let capacities = Array(repeating: 100, count: 40)
        let (kept, _) = PiecewiseFill.fill(capacities: capacities, keeping: { _ in 7 }) { (k, stretch: UnsafeMutableBufferPointer<Int32>) in
            for i in 0..<50 { stretch[i] = Int32(k * 1_000 + i) }
            return PiecewiseFill.Piece(written: 50, fitted: true, report: ())
        }
        #expect(kept == (0..<7).flatMap { k in (0..<50).map { Int32(k * 1_000 + $0) } })
        let (none, _) = PiecewiseFill.fill(capacities: capacities) { (k, stretch: UnsafeMutableBufferPointer<Int32>) in
            stretch[0] = 1
            return PiecewiseFill.Piece(written: 1, fitted: k != 13, report: ())
        }
        #expect(none.isEmpty)
    }
}
