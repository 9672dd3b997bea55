import AssetTestSupport
import Testing
@testable import AssetCore

@Suite struct EightDigitsTests {
    /// Every digit run length with every kind of byte after it, against a byte-by-byte count.
    @Test func countsAndValuesMatchAByteLoop() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let length = Int(random.next() % 11)
            var bytes = (0..<length).map { _ in UInt8(48 + random.next() % 10) }
            bytes += (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let start = Int(random.next() % 3)
            bytes = [UInt8](repeating: 0x20, count: start) + bytes
            var expectedCount = 0
            var expectedValue: UInt64 = 0
            while expectedCount < 8, start + expectedCount < bytes.count, (48...57).contains(bytes[start + expectedCount]) {
                expectedValue = expectedValue * 10 + UInt64(bytes[start + expectedCount] - 48)
                expectedCount += 1
            }
            let got = bytes.withUnsafeBufferPointer { EightDigits.read($0, at: start) }
            if start + 8 > bytes.count {
                #expect(got == nil, "fewer than eight bytes left: the byte loop's job")
            } else {
                #expect(got?.count == expectedCount && got?.value == expectedValue, "\(bytes)")
            }
        }
    }

    @Test func bytesNextToTheDigitRangeAreNotDigits() {
        // '/' and ':' sit on either side of '0'...'9'; 0xF9 has a digit's low nibble.
        for stop: UInt8 in [0x2F, 0x3A, 0xF9, 0x00, 0xFF, 0x2E, 0x2C] {
            let bytes: [UInt8] = Array("1234".utf8) + [stop] + Array("567".utf8)
            let got = bytes.withUnsafeBufferPointer { EightDigits.read($0, at: 0) }
            #expect(got?.count == 4 && got?.value == 1234, "stop byte \(stop)")
        }
        let eight = Array("98765432".utf8)
        #expect(eight.withUnsafeBufferPointer { EightDigits.read($0, at: 0) }.map { [$0.count, Int($0.value)] } == [8, 98_765_432])
    }
}
