import AssetCore
import CDeflate
import Dispatch

/// Binary FBX: the 27-byte header, the records, a null record, and the footer the FBX SDK checks.
/// Version 7400 keeps offsets in 32 bits, as Blender and the SDK write it; a file whose offsets
/// would pass 2 GB (readers take them as signed) is written again as 7500, whose offsets are 64-bit. Arrays of more than
/// `deflateThreshold` bytes are deflated (the SDK and Blender do the same), on all cores, each
/// array on its own: they are most of a large file's bytes and all of its encoding time.
struct FBXBinaryEncoder {
    static let deflateThreshold = 128

    /// The footer's fixed identifier and closing magic, as every binary FBX carries them.
    static let footerID: [UInt8] = [0xFA, 0xBC, 0xAB, 0x09, 0xD0, 0xC8, 0xD4, 0x66, 0xB1, 0x76, 0xFB, 0x83, 0x1C, 0xF7, 0x26, 0x7E]
    static let footerMagic: [UInt8] = [0xF8, 0x5A, 0x8C, 0x6A, 0xDE, 0xF5, 0xD9, 0x7E, 0xEC, 0xE9, 0x0C, 0xE3, 0x75, 0x8F, 0x29, 0x0B]

    /// The file's bytes, 7.4 unless its size needs 7.5's wide offsets.
    static func encode(_ records: [FBXRecord]) -> [UInt8] {
        let arrays = deflatedArrays(records)
        if let narrow = encode(records, version: 7400, arrays: arrays) { return narrow }
        return encode(records, version: 7500, arrays: arrays)!
    }

    /// Every array's stored bytes in the order the walk meets them: deflated when large. Each is
    /// deflated straight from its typed storage, on all cores.
    private static func deflatedArrays(_ records: [FBXRecord]) -> [(encoding: UInt32, bytes: [UInt8])] {
        var arrays: [FBXProperty] = []
        func walk(_ record: FBXRecord) {
            for value in record.values {
                switch value {
                case .int32s, .int64s, .floats, .doubles: arrays.append(value)
                default: break
                }
            }
            record.children.forEach(walk)
        }
        records.forEach(walk)
        let found = arrays
        let out = Locked([(encoding: UInt32, bytes: [UInt8])](repeating: (0, []), count: found.count))
        DispatchQueue.concurrentPerform(iterations: found.count) { k in
            let stored = withBytes(found[k]) { raw -> (UInt32, [UInt8]) in
                if raw.count > deflateThreshold, let packed = deflate(raw) { return (1, packed) }
                return (0, Array(raw))
            }
            out.withLock { $0[k] = stored }
        }
        return out.value
    }

    private static func withBytes<R>(_ value: FBXProperty, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch value {
        case .int32s(let v): return v.withUnsafeBytes(body)
        case .int64s(let v): return v.withUnsafeBytes(body)
        case .floats(let v): return v.withUnsafeBytes(body)
        case .doubles(let v): return v.withUnsafeBytes(body)
        default: return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// A zlib stream (what FBX's encoding 1 is) at level 1 through libdeflate: FBX arrays (floats,
    /// indices) gain little from more effort, and libdeflate's level 1 is several times faster
    /// than zlib's. Nil when deflating would not make the array smaller.
    private static func deflate(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let base = bytes.baseAddress, let compressor = libdeflate_alloc_compressor(1) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        let out = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            initialized = libdeflate_zlib_compress(compressor, base, bytes.count, buffer.baseAddress, bound)
        }
        return !out.isEmpty && out.count < bytes.count ? out : nil
    }

    private static func encode(_ records: [FBXRecord], version: UInt32, arrays: [(encoding: UInt32, bytes: [UInt8])]) -> [UInt8]? {
        var writer = Writer(wide: version >= 7500, arrays: arrays)
        writer.append(Array("Kaydara FBX Binary  ".utf8) + [0, 0x1A, 0])
        writer.u32(version)
        for record in records { writer.write(record) }
        writer.nullRecord()
        guard !writer.overflowed else { return nil }
        writer.append(footerID)
        writer.append([0, 0, 0, 0])
        // Zeros to the next multiple of 16 (a whole 16 when already there), as the SDK pads.
        writer.append([UInt8](repeating: 0, count: 16 - writer.out.count % 16))
        writer.u32(version)
        writer.append([UInt8](repeating: 0, count: 120))
        writer.append(footerMagic)
        return writer.out
    }

    /// Appends little-endian values to one buffer and patches each record's header once its end is known.
    private struct Writer {
        let wide: Bool
        let arrays: [(encoding: UInt32, bytes: [UInt8])]
        var out: [UInt8] = []
        var nextArray = 0
        var overflowed = false

        init(wide: Bool, arrays: [(encoding: UInt32, bytes: [UInt8])]) {
            self.wide = wide
            self.arrays = arrays
            out.reserveCapacity(arrays.reduce(1 << 16) { $0 + $1.bytes.count + 16 })
        }

        mutating func append(_ bytes: [UInt8]) { out.append(contentsOf: bytes) }
        mutating func u8(_ v: UInt8) { out.append(v) }
        mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }

        mutating func nullRecord() { out.append(contentsOf: repeatElement(0, count: wide ? 25 : 13)) }

        mutating func write(_ record: FBXRecord) {
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: wide ? 24 : 12))  // end offset, value count, value bytes: patched below
            let name = Array(record.name.utf8.prefix(255))
            u8(UInt8(name.count))
            append(name)
            let valuesStart = out.count
            for value in record.values { write(value) }
            let valuesLength = out.count - valuesStart
            for child in record.children { write(child) }
            // A null record closes a nested list; the SDK also writes one for a record with no values.
            if !record.children.isEmpty || record.values.isEmpty || record.hasScope { nullRecord() }
            patch(at: start, [out.count, record.values.count, valuesLength])
        }

        private mutating func patch(at offset: Int, _ numbers: [Int]) {
            var at = offset
            for n in numbers {
                if wide {
                    withUnsafeBytes(of: UInt64(n).littleEndian) { for b in $0 { out[at] = b; at += 1 } }
                } else {
                    guard n <= Int(Int32.max) else { overflowed = true; return }
                    withUnsafeBytes(of: UInt32(n).littleEndian) { for b in $0 { out[at] = b; at += 1 } }
                }
            }
        }

        private mutating func write(_ value: FBXProperty) {
            switch value {
            case .bool(let v): u8(0x43); u8(v ? 1 : 0)
            case .int32(let v): u8(0x49); u32(UInt32(bitPattern: v))
            case .int64(let v): u8(0x4C); u64(UInt64(bitPattern: v))
            case .float(let v): u8(0x46); u32(v.bitPattern)
            case .double(let v): u8(0x44); u64(v.bitPattern)
            case .string(let v): u8(0x53); let b = Array(v.utf8); u32(UInt32(b.count)); append(b)
            case .raw(let v): u8(0x52); u32(UInt32(v.count)); append(v)
            case .int32s(let v): array(0x69, count: v.count)
            case .int64s(let v): array(0x6C, count: v.count)
            case .floats(let v): array(0x66, count: v.count)
            case .doubles(let v): array(0x64, count: v.count)
            }
        }

        private mutating func array(_ code: UInt8, count: Int) {
            let stored = arrays[nextArray]
            nextArray += 1
            u8(code)
            u32(UInt32(count))
            u32(stored.encoding)
            u32(UInt32(stored.bytes.count))
            append(stored.bytes)
        }
    }
}
