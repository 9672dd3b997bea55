/// Up to eight ASCII digits read as one 64-bit word (SWAR): how many leading bytes are digits, and
/// their value, in a handful of integer operations instead of a compare, branch and multiply per
/// byte. The number parsers' hot loops call this first and fall back to the byte loop near the
/// end of the buffer or when all eight bytes are digits (the number may go on).
///
/// Written by hand: the technique (nibble checks for the digit test, three multiply-shift steps
/// that pair digits into 2, 4 and then 8) is well known, but no Swift package offers it.
@usableFromInline
enum EightDigits {
    /// The digits starting at `k` when at least eight bytes remain, else nil. `count` is 0...8.
    @inlinable @inline(__always)
    static func read(_ p: UnsafeBufferPointer<UInt8>, at k: Int) -> (count: Int, value: UInt64)? {
        guard k &+ 8 <= p.count, let base = p.baseAddress else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3 and adding 6 keeps it so (low nibble <= 9).
        // A carry out of a non-digit byte can only disturb bytes after the first non-digit.
        let highNibbleOff = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        let lowNibbleOff = ((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        let notDigit = highNibbleOff | lowNibbleOff
        let count = notDigit == 0 ? 8 : notDigit.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        // Digits to the high bytes (leading zeros fill the low ones), then pairs, quads, eights.
        var v = (word &- 0x3030_3030_3030_3030) << UInt64((8 &- count) &* 8)
        v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return (count, v)
    }

    /// 10^n for n in 0...8; a switch rather than a static array, which would cost a lazy-global
    /// check (`swift_once`) on every call in the hot loop.
    @inlinable @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1000
        case 4: return 10000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }
}
