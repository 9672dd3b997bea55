import AssetCore
import Foundation
import Testing
@testable import FormatUSD

/// Long arrays are scanned ahead in windows without first finding their `]` (`scanAhead`). Each
/// test holds the result against the path that finds the `]` first (`scanThrough`), which the
/// rest of the suite checks against strtod and the general parser.
@Suite struct USDANumericArrayAheadTests {
    /// `count` integers after a `[`, wrapped every 1,000 so line counts are tested too.
    private func integers(_ count: Int) -> (text: String, values: [Int32]) {
        let values = (0..<count).map { Int32(truncatingIfNeeded: ($0 &* 7_919) % 2_000_003 - 1_000_000) }
        var text = ""
        for (k, v) in values.enumerated() { text += (k == 0 ? "" : k % 1_000 == 0 ? ",\n    " : ", ") + String(v) }
        return (text, values)
    }

    private func triples(_ count: Int) -> (text: String, values: [Double]) {
        var values: [Double] = []
        var text = ""
        for k in 0..<count {
            let triple = [Double(k % 1_000) / 8, -Double(k % 777) / 16, Double(k) / 4]
            values += triple
            text += (k == 0 ? "(" : k % 500 == 0 ? "),\n    (" : "), (") + triple.map { String($0) }.joined(separator: ", ")
        }
        return (text + ")", values)
    }

    private func exact(_ bytes: [UInt8], from start: Int) throws -> USDANumericArrayScanner.Chunk<Int32> {
        try bytes.withUnsafeBufferPointer { p in
            let close = try #require(USDANumericArrayScanner.firstClose(p, start..<p.count))
            return try #require(USDANumericArrayScanner.scanThrough(USDANumericArrayScanner.Int32s.self, p, from: start, close: close,
                                                                    maxElements: .max))
        }
    }

    /// The `]` search splits long ranges between two cores; it must still find the first one,
    /// wherever the halves fall, as a plain byte-by-byte search does.
    @Test func firstCloseFindsTheFirstBracketInEitherHalf() {
        let size = 3 << 20
        for brackets in [[], [size - 2], [size / 2 + 1], [size / 2 - 1, size / 2 + 1], [17, size - 5], [size / 2]] {
            var bytes = [UInt8](repeating: UInt8(ascii: "1"), count: size)
            for at in brackets { bytes[at] = UInt8(ascii: "]") }
            for start in [0, 5, size / 4] {
                for inHalves in [true, false] {
                    let found = bytes.withUnsafeBufferPointer { USDANumericArrayScanner.firstClose($0, start..<size, inHalves: inHalves) }
                    #expect(found == bytes[start...].firstIndex(of: UInt8(ascii: "]")), "brackets at \(brackets), from \(start), halves \(inHalves)")
                }
            }
        }
    }

    /// The array closes inside the window; past its `]` come more properties, one of them another
    /// long array, which the pieces after the closing one must not leak into the result.
    @Test func theFirstPieceThatMeetsTheBracketEndsTheArray() throws {
        let (text, values) = integers(600_000)
        let (after, _) = integers(400_000)
        let bytes = Array("[\(text)]\n    int[] next = [\(after)]\n    uniform token t = \"x\"\n".utf8)
        #expect(bytes.count > 2 * USDANumericArrayScanner.pieceBytes, "pieces must lie past the array")
        let ahead = bytes.withUnsafeBufferPointer { p in
            USDANumericArrayScanner.scanAhead(USDANumericArrayScanner.Int32s.self, p, from: 1, maxElements: .max, window: p.count)
        }
        guard case .closed(let chunk) = ahead else {
            Issue.record("expected the window to close the array, got \(ahead)")
            return
        }
        let reference = try exact(bytes, from: 1)
        #expect(chunk.values == values)
        #expect(chunk.end == reference.end)
        #expect(chunk.newlines == reference.newlines)
        #expect(chunk.lastNewline == reference.lastNewline)
    }

    /// Windows much shorter than the array: the scan goes on window by window from element starts
    /// and joins the parts, for integers and for groups.
    @Test func arraysLongerThanTheWindowGoOnInTheNext() throws {
        let (text, values) = integers(1_500_000)
        let bytes = Array("[\(text)]\n    float x = 1\n".utf8)
        let window = 1 << 20
        #expect(bytes.count > USDANumericArrayScanner.probeBytes + 2 * window, "several windows must be needed")
        let first = bytes.withUnsafeBufferPointer { p in
            USDANumericArrayScanner.scanAhead(USDANumericArrayScanner.Int32s.self, p, from: 1, maxElements: .max, window: window)
        }
        guard case .continues(_, let next) = first else {
            Issue.record("a window shorter than the array must continue, got \(first)")
            return
        }
        #expect(bytes[next] == UInt8(ascii: ","), "the next window starts at an element")
        let chunk = try #require(bytes.withUnsafeBufferPointer { USDANumericArrayScanner.scanInt32s($0, from: 1, maxElements: .max, window: window) })
        let reference = try exact(bytes, from: 1)
        #expect(chunk.values == values)
        #expect(chunk.end == reference.end)
        #expect(chunk.newlines == reference.newlines)
        #expect(chunk.lastNewline == reference.lastNewline)

        let (groups, numbers) = triples(400_000)
        let tupleBytes = Array("[\(groups)]\n".utf8)
        #expect(tupleBytes.count > USDANumericArrayScanner.probeBytes + 2 * window)
        let tuples = try #require(tupleBytes.withUnsafeBufferPointer {
            USDANumericArrayScanner.scanDoubles($0, from: 1, maxElements: .max, window: window)
        })
        #expect(tuples.values == numbers)
        #expect(tuples.components == 3)
        #expect(tuples.end == tupleBytes.count - 1)
        #expect(tuples.newlines == 400_000 / 500 - 1)
    }

    /// What the fast path cannot take, far into a long array, still sends the array to the general
    /// parser; a text that never closes is no array.
    @Test func unusualContentFarInStillDeclines() {
        let (text, _) = integers(900_000)
        let middle = text.utf8.count / 2
        let cut = text.utf8.index(text.utf8.startIndex, offsetBy: middle)
        let split = text.utf8[cut...].firstIndex(of: UInt8(ascii: ","))!
        let commented = String(text[..<split]) + " # a comment ] ,\n" + String(text[split...].dropFirst())
        for body in ["[\(commented)]\n", "[\(text)\n"] {
            let bytes = Array(body.utf8)
            let chunk = bytes.withUnsafeBufferPointer { USDANumericArrayScanner.scanInt32s($0, from: 1, maxElements: .max, window: 1 << 20) }
            #expect(chunk == nil)
        }
    }

    /// The element limit holds over the joined windows, not only within each.
    @Test func theElementLimitCountsEveryWindow() {
        let (text, _) = integers(1_200_000)
        let bytes = Array("[\(text)]\n".utf8)
        let chunk = bytes.withUnsafeBufferPointer { USDANumericArrayScanner.scanInt32s($0, from: 1, maxElements: 1_000_000, window: 1 << 20) }
        #expect(chunk == nil)
    }
}
