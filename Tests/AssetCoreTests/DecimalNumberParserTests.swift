import Foundation
import Testing
@testable import AssetCore

@Suite struct DecimalNumberParserTests {
    /// Every result must be bit-identical to the C library's correctly rounded conversion.
    func check(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let expectedDouble = text.withCString { strtod($0, nil) }
        let expectedFloat = text.withCString { strtof($0, nil) }
        let double = DecimalNumberParser.double(text)
        let float = DecimalNumberParser.float(text)
        #expect(double?.bitPattern == expectedDouble.bitPattern, "\(text) as Double", sourceLocation: sourceLocation)
        #expect(float?.bitPattern == expectedFloat.bitPattern, "\(text) as Float", sourceLocation: sourceLocation)
    }

    @Test func fastPathCases() {
        for text in ["0", "-0", "1", "-1", "0.5", "3.14159", "1e3", "1E-3", "-2.5e+10", ".5", "5.", "123456789",
                     "0.1", "0.2", "0.3", "1e22", "1e-22", "9007199254740991", "16777215", "0.000001"] {
            check(text)
        }
    }

    @Test func slowPathCases() {
        // Long significands, huge and tiny exponents, halfway cases, subnormals.
        for text in ["0.1234567890123456789012", "9007199254740993", "1e23", "1e-23", "2.2250738585072011e-308",
                     "4.9e-324", "1.7976931348623157e308", "1e400", "1e-400", "0.30000000000000004441",
                     "16777217", "1.00000005960464477539062500001", "3.4028235e38", "1.401298464324817e-45",
                     "123456789012345678901234567890", "0.000000000000000000000000000001"] {
            check(text)
        }
    }

    @Test func randomNumbersMatchTheCLibrary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            for text in [String(value), String(format: "%.6f", Double(Float(value.truncatingRemainder(dividingBy: 1000)))),
                         String(format: "%.9g", value), String(format: "%.17g", value)] {
                check(text)
            }
        }
    }

    @Test func specialsAndRejects() {
        #expect(DecimalNumberParser.double("inf") == .infinity)
        #expect(DecimalNumberParser.double("-inf") == -.infinity)
        #expect(DecimalNumberParser.double("nan")?.isNaN == true)
        #expect(DecimalNumberParser.double("") == nil)
        #expect(DecimalNumberParser.double("-") == nil)
        #expect(DecimalNumberParser.double("abc") == nil)
        #expect(DecimalNumberParser.double("1.2.3") == nil)
    }

    @Test func scanStopsWhereTheNumberEnds() {
        let bytes = Array("12.5e3,-4 1e".utf8)
        bytes.withUnsafeBufferPointer { b in
            let first = DecimalNumberParser.scan(b, from: 0)
            #expect(first?.end == 6)
            let second = DecimalNumberParser.scan(b, from: 7)
            #expect(second?.end == 9)
            // "1e" with no exponent digits is the number 1.
            let third = DecimalNumberParser.scan(b, from: 10)
            #expect(third?.end == 11)
            #expect(third.map { DecimalNumberParser.double($0, b, from: 10) } == 1)
        }
    }
}

@Suite struct HotLoopNumberTests {
    func parseAll(_ text: String, float: Bool) -> [UInt64] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            var out: [UInt64] = []
            var i = 0
            while i < b.count {
                if b[i] == 0x20 { i += 1; continue }
                if float {
                    guard let v = DecimalNumberParser.parseFloat(b, &i) else { return out }
                    out.append(UInt64(v.bitPattern))
                } else {
                    guard let v = DecimalNumberParser.parseDouble(b, &i) else { return out }
                    out.append(v.bitPattern)
                }
            }
            return out
        }
    }

    @Test func hotLoopsMatchTheCLibraryOnRandomAndHardInputs() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "1", "0.1", "16777216", "16777217", "16777218.5", "0.30000001192092896",
                     "3.4028235e38", "1e-45", "1.1754943e-38", "1.17549435e-38", "7.038531e-26",
                     "8.589973e9", "0.000000000001", "123456789.123456789", "1e10", "-2.5e-3"]
        for _ in 0..<50_000 {
            let f = Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &generator))
            texts.append(String(f))
            texts.append(String(format: "%.7g", Double(f)))
            texts.append(String(format: "%.6f", Double(Int32.random(in: -9_999_999...9_999_999, using: &generator)) / 1e4))
            // Decimals exactly halfway between two Floats: the double-rounding trap.
            let lower = Float(bitPattern: UInt32.random(in: 0x3400_0000..<0x4B00_0000, using: &generator))
            texts.append(String(format: "%.17g", (Double(lower) + Double(lower.nextUp)) / 2))
        }
        let line = texts.joined(separator: " ")
        let floats = parseAll(line, float: true)
        let doubles = parseAll(line, float: false)
        #expect(floats == texts.map { t in UInt64(t.withCString { strtof($0, nil) }.bitPattern) })
        #expect(doubles == texts.map { t in t.withCString { strtod($0, nil) }.bitPattern })
    }
}
