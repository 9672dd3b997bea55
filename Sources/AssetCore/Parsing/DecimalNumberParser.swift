#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses decimal numbers straight from UTF-8 bytes, correctly rounded.
///
/// Written by hand because the alternatives are far too slow for the multi-megabyte arrays in USD
/// text and Collada (`Double(Substring)` ~7 MB/s, `strtod` ~40 MB/s on this machine) and no
/// maintained Swift package parses from a byte buffer in place.
///
/// Public rather than `package` like AssetCore's other helpers: the readers' number loops must
/// inline these calls, and a release build here did not inline `@inlinable package` functions
/// across modules (Collada's 1M-triangle read spent 28% of its time in the calls).
///
/// Correct rounding comes from Clinger's fast path: when the decimal significand fits in 53 bits
/// (24 for Float) and the power of ten is exactly representable, one IEEE multiply or divide gives
/// the correctly rounded result. Everything else (long significands, large exponents) goes to the C
/// library, which is exact, so the result is always the one `strtod`/`strtof` gives.
public enum DecimalNumberParser {
    /// 10^n for n in 0...22, the powers a Double holds exactly (10^22 is the largest with a 53-bit
    /// significand). A switch, which the compiler turns into a constant table: a static array was
    /// still reached through its lazy-global accessor, a call and a bounds check on every number.
    @inlinable @inline(__always)
    static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// 10^n for n in 0...10, exact in a Float (5^10 fits its 24-bit significand), so narrowing
    /// the exact Double changes nothing.
    @inlinable @inline(__always)
    static func floatPowerOfTen(_ n: Int) -> Float {
        Float(powerOfTen(n))
    }

    /// The result of scanning one number.
    public struct Scan {
        public var significand: UInt64
        /// Decimal exponent applied to `significand`.
        public var exponent: Int
        public var isNegative: Bool
        /// More than 19 significant digits, or an exponent too large to track: use the slow path.
        public var isTruncated: Bool
        /// The number had no '.' and no exponent.
        public var isIntegerLiteral: Bool
        /// Index just past the number.
        public var end: Int

        @inlinable
        public init(significand: UInt64, exponent: Int, isNegative: Bool, isTruncated: Bool, isIntegerLiteral: Bool, end: Int) {
            self.significand = significand
            self.exponent = exponent
            self.isNegative = isNegative
            self.isTruncated = isTruncated
            self.isIntegerLiteral = isIntegerLiteral
            self.end = end
        }
    }

    /// Scans a number starting at `start`: `[+-]digits[.digits][(e|E)[+-]digits]`, also `.5` and
    /// `5.`, plus `inf`, `infinity` and `nan` in any case. Returns nil when there is no number there.
    @inlinable
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Scan? {
        var i = start
        let n = bytes.count
        guard i < n else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        var sawDigit = false
        // Leading zeros carry no information and must not use up the 19-digit budget.
        while i < n, bytes[i] == UInt8(ascii: "0") { i += 1; sawDigit = true }
        while i < n {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            sawDigit = true
            if digits < 19 { significand = significand &* 10 &+ UInt64(d); digits += (significand == 0 ? 0 : 1) }
            else { exponent += 1; if d != 0 { truncated = true } }
            i += 1
        }
        var isInteger = true
        if i < n, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            while i < n {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                sawDigit = true
                if digits < 19 {
                    significand = significand &* 10 &+ UInt64(d)
                    if significand != 0 { digits += 1 }
                    exponent -= 1
                } else if d != 0 { truncated = true }
                i += 1
            }
        }
        guard sawDigit else { return scanSpecial(bytes, from: start) }
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            var j = i + 1
            var expNegative = false
            if j < n, bytes[j] == UInt8(ascii: "-") { expNegative = true; j += 1 }
            else if j < n, bytes[j] == UInt8(ascii: "+") { j += 1 }
            var e = 0
            var expDigits = 0
            while j < n {
                let d = bytes[j] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if e < 100_000 { e = e * 10 + Int(d) } else { truncated = true }
                expDigits += 1
                j += 1
            }
            // "1e" or "1e+" is the number 1 followed by something else, as strtod reads it.
            if expDigits > 0 {
                isInteger = false
                exponent += expNegative ? -e : e
                i = j
            }
        }
        return Scan(significand: significand, exponent: exponent, isNegative: negative,
                    isTruncated: truncated, isIntegerLiteral: isInteger, end: i)
    }

    @usableFromInline
    static func scanSpecial(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Scan? {
        var i = start
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-"); i += 1
        }
        func matches(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count else { return false }
            for k in 0..<w.count where bytes[i + k] | 0x20 != w[k] { return false }
            return true
        }
        // Marked with a huge exponent so the value paths below produce inf/nan without strtod.
        if matches("infinity") { return Scan(significand: 1, exponent: Int.max, isNegative: negative, isTruncated: false, isIntegerLiteral: false, end: i + 8) }
        if matches("inf") { return Scan(significand: 1, exponent: Int.max, isNegative: negative, isTruncated: false, isIntegerLiteral: false, end: i + 3) }
        if matches("nan") { return Scan(significand: 0, exponent: Int.max, isNegative: negative, isTruncated: false, isIntegerLiteral: false, end: i + 3) }
        return nil
    }

    /// The correctly rounded Double for a scanned number.
    @inlinable
    public static func double(_ s: Scan, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Double {
        if s.exponent == Int.max { return special(s) }
        if !s.isTruncated && s.significand < (1 << 53) {
            let m = Double(s.significand)
            if s.exponent == 0 { return s.isNegative ? -m : m }
            if s.exponent > 0 && s.exponent <= 22 { let v = m * powerOfTen(s.exponent); return s.isNegative ? -v : v }
            if s.exponent < 0 && s.exponent >= -22 { let v = m / powerOfTen(-s.exponent); return s.isNegative ? -v : v }
            if s.significand == 0 { return s.isNegative ? -0.0 : 0.0 }
        }
        return slowDouble(bytes, start, s.end)
    }

    /// The correctly rounded Float, the value `strtof` gives (not Float(Double), which can round twice).
    @inlinable
    public static func float(_ s: Scan, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Float {
        if s.exponent == Int.max { return Float(special(s)) }
        if !s.isTruncated && s.significand < (1 << 24) {
            let m = Float(s.significand)
            if s.exponent == 0 { return s.isNegative ? -m : m }
            if s.exponent > 0 && s.exponent <= 10 { let v = m * floatPowerOfTen(s.exponent); return s.isNegative ? -v : v }
            if s.exponent < 0 && s.exponent >= -10 { let v = m / floatPowerOfTen(-s.exponent); return s.isNegative ? -v : v }
            if s.significand == 0 { return s.isNegative ? -0.0 : 0.0 }
        }
        return slowFloat(bytes, start, s.end)
    }

    @usableFromInline static func special(_ s: Scan) -> Double {
        if s.significand == 0 { return .nan }
        return s.isNegative ? -.infinity : .infinity
    }

    @usableFromInline
    static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        withCString(bytes, start, end) { strtod($0, nil) }
    }

    @usableFromInline
    static func slowFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Float {
        withCString(bytes, start, end) { strtof($0, nil) }
    }

    /// strtod needs a NUL-terminated string; numbers are short, so copy onto the stack-sized buffer.
    @usableFromInline
    static func withCString<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                               _ body: (UnsafePointer<CChar>) -> T) -> T {
        let count = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for k in 0..<count { buffer[k] = CChar(bitPattern: bytes[start + k]) }
            buffer[count] = 0
            return body(buffer.baseAddress!)
        }
    }
}

extension DecimalNumberParser {
    /// Convenience for tests and small inputs: the Double a whole string spells, or nil.
    public static func double(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            guard let s = scan(b, from: 0), s.end == b.count else { return nil }
            return double(s, b, from: 0)
        }
    }

    public static func float(_ text: String) -> Float? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            guard let s = scan(b, from: 0), s.end == b.count else { return nil }
            return float(s, b, from: 0)
        }
    }
}

extension DecimalNumberParser {
    /// A plain decimal (`-?digits[.digits]`) scanned by the hot loops, or a flag that the general
    /// path must take it (exponents, long significands, tiny values, specials).
    @usableFromInline
    struct PlainDecimal {
        @usableFromInline var significand: UInt64
        @usableFromInline var exponent: Int
        @usableFromInline var isNegative: Bool
        @usableFromInline var end: Int
        /// Exponent notation, more than 18 digits or below 1e-22: `scan` + the exact conversions.
        @usableFromInline var needsGeneralPath: Bool

        @inlinable init(significand: UInt64, exponent: Int, isNegative: Bool, end: Int, needsGeneralPath: Bool) {
            self.significand = significand
            self.exponent = exponent
            self.isNegative = isNegative
            self.end = end
            self.needsGeneralPath = needsGeneralPath
        }
    }

    /// nil when no digits start at `start` (the general path still tries `inf` and `nan`).
    @inlinable @inline(__always)
    static func scanPlain(_ p: UnsafeBufferPointer<UInt8>, from start: Int, allowPlus: Bool) -> PlainDecimal? {
        var k = start
        let end = p.count
        var negative = false
        if k < end && p[k] == UInt8(ascii: "-") { negative = true; k += 1 }
        else if allowPlus && k < end && p[k] == UInt8(ascii: "+") { k += 1 }
        var significand: UInt64 = 0
        // Every digit counts, leading zeros too: an upper bound on the significant ones, so a
        // number this calls long only takes the exact general path sooner.
        var digits = 0
        var exponent = 0
        let firstDigit = k
        // Fewer than eight digits from `EightDigits` means the byte after them is no digit: the
        // byte loops are skipped (6% of a float array's scan).
        var more = true
        if let word = EightDigits.read(p, at: k) {
            significand = word.value
            digits = word.count
            k += word.count
            more = word.count == 8
        }
        while more && k < end {
            let d = p[k] &- 48
            guard d < 10 else { break }
            significand = significand &* 10 &+ UInt64(d)
            digits += 1
            k += 1
        }
        if k < end && p[k] == UInt8(ascii: ".") {
            k += 1
            var more = true
            if let word = EightDigits.read(p, at: k), word.count > 0 {
                significand = significand &* EightDigits.powerOfTen(word.count) &+ word.value
                digits += word.count
                exponent -= word.count
                k += word.count
                more = word.count == 8
            }
            while more && k < end {
                let d = p[k] &- 48
                guard d < 10 else { break }
                significand = significand &* 10 &+ UInt64(d)
                digits += 1
                exponent -= 1
                k += 1
            }
        }
        guard k > firstDigit, !(k == firstDigit + 1 && p[firstDigit] == UInt8(ascii: ".")) else { return nil }
        let general = k < end && (p[k] | 0x20) == UInt8(ascii: "e") || digits > 18 || exponent < -22
        return PlainDecimal(significand: significand, exponent: exponent, isNegative: negative, end: k, needsGeneralPath: general)
    }

    /// The hot-loop form: parses `-?digits[.digits][(e|E)[+-]digits]` at `i` and advances past it.
    /// Numbers the fast path cannot round exactly go through `scan` + `double`, so the result is
    /// always strtod's. Returns nil, leaving `i` alone, when no number starts at `i`.
    @inlinable @inline(__always)
    public static func parseDouble(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Double? {
        let start = i
        guard let plain = scanPlain(p, from: start, allowPlus: false), !plain.needsGeneralPath, plain.significand < (1 << 53) else {
            guard let s = scan(p, from: start) else { return nil }
            i = s.end
            return double(s, p, from: start)
        }
        i = plain.end
        let m = Double(plain.significand)  // exact below 2^53
        let v = plain.exponent == 0 ? m : m / powerOfTen(-plain.exponent)
        return plain.isNegative ? -v : v
    }
}

extension DecimalNumberParser {
    /// The Float `strtof` gives, from the hot loop. Clinger's fast path in Float arithmetic where it
    /// is exact; otherwise the correctly rounded Double narrowed to Float, which can differ from
    /// rounding the decimal directly only when that Double lies exactly halfway between two Floats
    /// (a halfway point strictly between the decimal and its nearest Double would be nearer still).
    /// Those, subnormals and long inputs go to `strtof`.
    @inlinable @inline(__always)
    public static func parseFloat(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Float? {
        let start = i
        guard let plain = scanPlain(p, from: start, allowPlus: true), !plain.needsGeneralPath else {
            guard let s = scan(p, from: start) else { return nil }
            i = s.end
            return float(s, p, from: start)
        }
        i = plain.end
        if plain.significand < (1 << 24) && plain.exponent >= -10 {
            let m = Float(plain.significand)
            let v = plain.exponent == 0 ? m : m / floatPowerOfTen(-plain.exponent)
            return plain.isNegative ? -v : v
        }
        if plain.significand < (1 << 53) {
            let d = plain.exponent == 0 ? Double(plain.significand) : Double(plain.significand) / powerOfTen(-plain.exponent)
            // A Double halfway between two Floats has exactly bit 28 set in its low 29 bits.
            if d.bitPattern & 0x1FFF_FFFF != 0x1000_0000 && d >= Double(Float.leastNormalMagnitude) {
                let f = Float(d)
                return plain.isNegative ? -f : f
            }
        }
        return slowFloat(p, start, plain.end)
    }
}

extension DecimalNumberParser {
    /// `-?digits` as Int32 at `i`, advancing past it; nil (with `i` unchanged) when there is no
    /// integer there, it overflows Int32, or it continues as a decimal (`1.5`, `1e3`).
    @inlinable @inline(__always)
    public static func parseInt32(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int32? {
        var k = i
        var negative = false
        if k < p.count && p[k] == UInt8(ascii: "-") { negative = true; k += 1 }
        var value: Int64 = 0
        let first = k
        if let word = EightDigits.read(p, at: k) {
            value = Int64(word.value)
            k += word.count
            if word.count < 8 {
                // Fewer than eight digits: the byte after them is no digit, and the value fits
                // Int32 whatever its sign (4% of an index array's scan).
                guard word.count > 0 else { return nil }
                let next = p[k]
                if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
                i = k
                return Int32(truncatingIfNeeded: negative ? -value : value)
            }
        }
        while k < p.count {
            let d = p[k] &- 48
            guard d < 10 else { break }
            value = value * 10 + Int64(d)
            if value > 2_147_483_648 { return nil }
            k += 1
        }
        guard k > first else { return nil }
        if k < p.count && (p[k] == UInt8(ascii: ".") || p[k] | 0x20 == UInt8(ascii: "e")) { return nil }
        let signed = negative ? -value : value
        guard signed >= -2_147_483_648 && signed <= 2_147_483_647 else { return nil }
        i = k
        return Int32(signed)
    }
}
