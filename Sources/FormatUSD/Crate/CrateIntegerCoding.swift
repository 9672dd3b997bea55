import AssetCore

/// OpenUSD's integer coding for index lists (the structural sections and integer arrays):
/// deltas from the previous value; the most common delta stored once; a 2-bit code per value
/// (00 the common delta, 01/10/11 a small, medium or full-width delta in a trailing variable
/// section), then the whole buffer LZ4-framed. Written here because no library implements it.
enum CrateIntegerCoding {
    static func encodedSize<I: FixedWidthInteger>(count: Int, _: I.Type) -> Int {
        count == 0 ? 0 : MemoryLayout<I>.size + (count * 2 + 7) / 8 + count * MemoryLayout<I>.size
    }

    /// The most values `compressedBytes` of coded data can describe: each value costs at least
    /// two bits before LZ4, which expands by at most 255 times.
    static func maxCount(compressedBytes: Int) -> UInt64 {
        CrateCompression.maxDecompressedSize(ofCompressed: compressedBytes) * 4
    }

    static func decode32(_ compressed: UnsafeRawBufferPointer, count: Int) -> [Int32]? {
        decode(compressed, count: count, Int32.self, small: Int8.self, medium: Int16.self)
    }

    static func decode64(_ compressed: UnsafeRawBufferPointer, count: Int) -> [Int64]? {
        decode(compressed, count: count, Int64.self, small: Int16.self, medium: Int32.self)
    }

    static func encode32(_ values: [Int32]) -> [UInt8] {
        encode(values, small: Int8.self, medium: Int16.self)
    }

    static func encode64(_ values: [Int64]) -> [UInt8] {
        encode(values, small: Int16.self, medium: Int32.self)
    }

    @inline(__always)
    private static func decode<I: FixedWidthInteger & SignedInteger, S: FixedWidthInteger & SignedInteger, M: FixedWidthInteger & SignedInteger>(
        _ compressed: UnsafeRawBufferPointer, count: Int, _: I.Type, small: S.Type, medium: M.Type
    ) -> [I]? {
        if count == 0 { return [] }
        guard let work = CrateCompression.decompress(compressed, maxOutputSize: encodedSize(count: count, I.self)) else { return nil }
        let width = MemoryLayout<I>.size
        let codeBytes = (count * 2 + 7) / 8
        guard work.count >= width + codeBytes else { return nil }
        var failed = false
        let result = [I](unsafeUninitializedCapacity: count) { out, initialized in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: count * MemoryLayout<I>.stride)
            work.withUnsafeBytes { w in
                let common = I(littleEndian: w.loadUnaligned(as: I.self))
                var vint = width + codeBytes
                var previous: I = 0
                let end = w.count
                for i in 0..<count {
                    let code = (w[width + (i >> 2)] >> UInt8((i & 3) * 2)) & 3
                    switch code {
                    case 0:
                        previous &+= common
                    case 1:
                        guard vint + MemoryLayout<S>.size <= end else { failed = true; initialized = i; return }
                        previous &+= I(S(littleEndian: w.loadUnaligned(fromByteOffset: vint, as: S.self)))
                        vint += MemoryLayout<S>.size
                    case 2:
                        guard vint + MemoryLayout<M>.size <= end else { failed = true; initialized = i; return }
                        previous &+= I(M(littleEndian: w.loadUnaligned(fromByteOffset: vint, as: M.self)))
                        vint += MemoryLayout<M>.size
                    default:
                        guard vint + width <= end else { failed = true; initialized = i; return }
                        previous &+= I(littleEndian: w.loadUnaligned(fromByteOffset: vint, as: I.self))
                        vint += width
                    }
                    out[i] = previous
                }
                initialized = count
            }
        }
        return failed ? nil : result
    }

    private static func encode<I: FixedWidthInteger & SignedInteger, S: FixedWidthInteger & SignedInteger, M: FixedWidthInteger & SignedInteger>(
        _ values: [I], small: S.Type, medium: M.Type
    ) -> [UInt8] {
        if values.isEmpty { return CrateCompression.compress(UnsafeRawBufferPointer(start: nil, count: 0)) }
        // The most common delta; on a tie the larger one, as OpenUSD picks.
        var counts: [I: Int] = [:]
        var common: I = 0
        var commonCount = 0
        var previous: I = 0
        for value in values {
            let delta = value &- previous
            previous = value
            let n = counts[delta, default: 0] + 1
            counts[delta] = n
            if n > commonCount || (n == commonCount && delta > common) { common = delta; commonCount = n }
        }
        let width = MemoryLayout<I>.size
        let codeBytes = (values.count * 2 + 7) / 8
        var buffer = [UInt8](repeating: 0, count: encodedSize(count: values.count, I.self))
        let used = buffer.withUnsafeMutableBytes { out -> Int in
            out.storeBytes(of: common.littleEndian, as: I.self)
            var vint = width + codeBytes
            previous = 0
            for (i, value) in values.enumerated() {
                let delta = value &- previous
                previous = value
                let code: UInt8
                if delta == common {
                    code = 0
                } else if let s = S(exactly: delta) {
                    code = 1
                    out.storeBytes(of: s.littleEndian, toByteOffset: vint, as: S.self); vint += MemoryLayout<S>.size
                } else if let m = M(exactly: delta) {
                    code = 2
                    out.storeBytes(of: m.littleEndian, toByteOffset: vint, as: M.self); vint += MemoryLayout<M>.size
                } else {
                    code = 3
                    out.storeBytes(of: delta.littleEndian, toByteOffset: vint, as: I.self); vint += width
                }
                out[width + (i >> 2)] |= code << UInt8((i & 3) * 2)
            }
            return vint
        }
        return buffer.withUnsafeBytes { CrateCompression.compress(UnsafeRawBufferPointer(rebasing: $0[0..<used])) }
    }
}
