import AssetCore
import Foundation
import Testing
@testable import FormatUSD

@Suite struct USDANumericArrayScannerTests {
    /// A points array big enough to be split across both cores, with awkward numbers sprinkled in.
    @Test func largeArraysParseBitForBitLikeStrtod() throws {
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = []
        for i in 0..<600_000 {
            switch i % 5 {
            case 0: texts.append(String(format: "%.6f", Double(Int64.random(in: -10_000_000...10_000_000, using: &generator)) / 1e4))
            case 1: texts.append(String(Double.random(in: -1e6...1e6, using: &generator)))
            case 2: texts.append(String(format: "%.9e", Double.random(in: -1...1, using: &generator)))
            case 3: texts.append(String(Int.random(in: -1000...1000, using: &generator)))
            default: texts.append("0.1234567890123456789")
            }
        }
        var tuples = ""
        for t in stride(from: 0, to: texts.count, by: 3) {
            tuples += (t == 0 ? "" : ", ") + "(\(texts[t]), \(texts[t + 1]), \(texts[t + 2]))"
            if t % 300 == 0 { tuples += "\n        " }
        }
        // The same numbers as double and as single precision: the float array holds each text's
        // Double narrowed to Float, as OpenUSD's reader and the former Double-then-convert path give.
        let indices: String = (0..<300_000).map { String($0 * 7 - 5) }.joined(separator: ", ")
        var body = "#usda 1.0\ndef Mesh \"M\"\n{\n"
        body += "    double3[] d = [\(tuples)]\n"
        body += "    point3f[] points = [\(tuples)]\n"
        body += "    int[] faceVertexIndices = [\(indices)]\n}\n"
        let bytes = Array(body.utf8)
        #expect(bytes.count > USDANumericArrayScanner.parallelThreshold, "the test must exercise the split")
        let layer = try USDAParser.parse(bytes, location: .file(path: "big.usda"))
        let properties = try #require(layer.rootPrims.first?.properties)
        let expected = texts.map { text in text.withCString { strtod($0, nil) } }
        guard case .numbers(let values, 3) = properties[0].defaultValue else {
            Issue.record("double3[] did not parse as a flat array of triples")
            return
        }
        #expect(values.count == expected.count)
        #expect(zip(values, expected).allSatisfy { $0.bitPattern == $1.bitPattern })
        guard case .floats(.triples(let points)) = properties[1].defaultValue else {
            Issue.record("point3f[] did not parse as single-precision triples")
            return
        }
        let flat: [Float] = points.flatMap { (p: SIMD3<Float>) -> [Float] in [p.x, p.y, p.z] }
        #expect(flat.count == expected.count)
        #expect(zip(flat, expected).allSatisfy { (f: Float, d: Double) in f.bitPattern == Float(d).bitPattern })
        #expect(properties[2].defaultValue == .integers((0..<300_000).map { Int32($0 * 7 - 5) }))
    }

    @Test func declinedArraysStillParseWithTheGeneralPath() throws {
        let layer = try USDAParser.parse(Array("""
            #usda 1.0
            def "A"
            {
                float3[] a = [(1, 2, 3), # a comment with ] in it
                              (4, 5, 6)]
                matrix4d[] m = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))]
                int[] big = [1, 2, 3000000000]
                float[] special = [inf, -inf, 1]
            }
            """.utf8), location: .file(path: "t.usda"))
        let p = try #require(layer.rootPrims.first?.properties)
        #expect(p[0].defaultValue == .numbers([1, 2, 3, 4, 5, 6], components: 3))
        #expect(p[1].defaultValue == .numbers([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], components: 16))
        #expect(p[2].defaultValue == .numbers([1, 2, 3_000_000_000], components: 1), "too big for Int32: kept exact as Double")
        #expect(p[3].defaultValue?.flatNumbers == [.infinity, -.infinity, 1])
    }

    @Test func linesStayRightAfterTheFastPath() {
        let text = "#usda 1.0\ndef \"A\"\n{\n    int[] i = [\n1,\n2,\n3]\n    float x = \n}\n"
        do {
            _ = try USDAParser.parse(Array(text.utf8), location: .file(path: "t.usda"))
            Issue.record("a missing value was accepted")
        } catch {
            #expect(error.description == "t.usda:9:1: expected a value, found '}'")
        }
    }

    /// Big arrays are cut into several pieces scanned into one buffer. Each piece here starts and
    /// ends with long numbers, where its density is sampled, and holds short ones between: the
    /// estimate falls short, and the pieces must be scanned again apart, to the same values.
    @Test func piecesWhoseDensityIsMisjudgedStillReadEveryNumber() throws {
        var expected: [Int32] = []
        var text = ""
        func add(_ value: Int32) {
            text += text.isEmpty ? String(value) : ", \(value)"
            expected.append(value)
        }
        // Short of `minimumPieces` whole pieces, so the array is cut into exactly that many.
        let stretch = USDANumericArrayScanner.pieceBytes / 2
        for q in 0..<USDANumericArrayScanner.minimumPieces {
            let stretchEnd = (q + 1) * stretch
            while text.utf8.count < q * stretch + stretch / 20 { add(1_000_000_000 + Int32(expected.count % 1000)) }
            while text.utf8.count < q * stretch + stretch * 9 / 20 { add(Int32(expected.count % 10)) }
            while text.utf8.count < stretchEnd { add(-1_000_000_000 - Int32(expected.count % 1000)) }
        }
        let content = Array(text.utf8)
        let pieces = content.withUnsafeBufferPointer { USDANumericArrayScanner.piecesOf($0, start: 0, close: $0.count) }
        #expect(pieces.count == USDANumericArrayScanner.minimumPieces, "one piece per stretch of long and short numbers")
        let short = pieces.filter { piece in
            let numbers = content[piece].reduce(1) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
            return content.withUnsafeBufferPointer { USDANumericArrayScanner.estimatedNumbers($0, piece) } < numbers
        }
        #expect(short.count == pieces.count, "every piece's estimate must fall short, or the test misses the path it is for")
        let layer = try USDAParser.parse(Array("#usda 1.0\ndef \"A\"\n{\n    int[] i = [\(text)]\n    int after = 7\n}\n".utf8),
                                         location: .file(path: "t.usda"))
        let properties = try #require(layer.rootPrims.first?.properties)
        #expect(properties[0].defaultValue == .integers(expected))
        #expect(properties[1].defaultValue == .number(7))

        // The same numbers evenly dense: the pieces fit their estimates and are scanned in place.
        let even = (0..<3_000_000).map { Int32($0 % 1_000_003) }
        let evenLayer = try USDAParser.parse(Array("#usda 1.0\ndef \"A\"\n{\n    int[] i = [\(even.map(String.init).joined(separator: ", "))]\n}\n".utf8),
                                             location: .file(path: "t.usda"))
        #expect(evenLayer.rootPrims.first?.properties.first?.defaultValue == .integers(even))
    }
}
