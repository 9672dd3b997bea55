import AssetCore
import AssetImage

/// The prefiltered data as bytes for a disk cache: a magic and version, the key, the harmonics,
/// each level's size and texels (little-endian floats), and a 64-bit FNV-1a checksum over all of
/// it. A cached file is only a shortcut: one that fails any check is an error the caller answers
/// by prefiltering again, never data that is trusted.
extension PrefilteredEnvironment {
    static let magic = Array("ASTCENV2".utf8)
    /// Per level, at most this many texels: far above the widths the prefilter makes.
    static let maxLevelTexels = 4096 * 2048

    public func serialized() -> [UInt8] {
        var out = Self.magic
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ v: Float) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        let keyBytes = Array(key.utf8)
        u32(keyBytes.count)
        out += keyBytes
        for c in irradiance { f32(c.x); f32(c.y); f32(c.z) }
        let levels = specularLevels
        u32(levels.count)
        for level in levels {
            u32(level.width)
            u32(level.height)
            out.reserveCapacity(out.count + level.texels.count * 4 + 8)
            for v in level.texels { f32(v) }
        }
        withUnsafeBytes(of: Self.checksum(out).littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    public init(serialized bytes: [UInt8]) throws(AssetError) {
        func malformed(_ why: String) -> AssetError { AssetError(.malformed("not a usable prefiltered environment: \(why)")) }
        guard bytes.count >= Self.magic.count + 8, Array(bytes.prefix(Self.magic.count)) == Self.magic else { throw malformed("wrong magic or version") }
        let body = bytes.count - 8
        var stored: UInt64 = 0
        for k in 0..<8 { stored |= UInt64(bytes[body + k]) << (8 * UInt64(k)) }
        guard stored == Self.checksum(bytes[0..<body]) else { throw malformed("checksum mismatch") }
        var at = Self.magic.count
        func u32() throws(AssetError) -> Int {
            guard at + 4 <= body else { throw malformed("truncated") }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(bytes[at + k]) << (8 * UInt32(k)) }
            at += 4
            return Int(v)
        }
        func f32() throws(AssetError) -> Float {
            let v = Float(bitPattern: UInt32(try u32()))
            guard v.isFinite, v >= -1e30 else { throw malformed("a value is not finite") }
            return v
        }
        let keyLength = try u32()
        guard keyLength <= 1024, at + keyLength <= body else { throw malformed("key length") }
        let key = String(decoding: bytes[at..<(at + keyLength)], as: UTF8.self)
        at += keyLength
        var irradiance: [SIMD3<Float>] = []
        for _ in 0..<9 { irradiance.append(SIMD3(try f32(), try f32(), try f32())) }
        let count = try u32()
        guard (1...16).contains(count) else { throw malformed("\(count) levels") }
        var levels: [HDRImage] = []
        for _ in 0..<count {
            let w = try u32(), h = try u32()
            guard w > 0, h > 0, w * h <= Self.maxLevelTexels, at + w * h * 12 <= body else { throw malformed("level size \(w) x \(h)") }
            // Copied whole and checked after: read value by value, a level took milliseconds of every warm start.
            let count = w * h * 3
            let texels = [Float](unsafeUninitializedCapacity: count) { out, initialized in
                bytes.withUnsafeBytes { raw in
                    for i in 0..<count { out[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4 * i, as: UInt32.self))) }
                }
                initialized = count
            }
            at += count * 4
            guard texels.allSatisfy({ $0 >= 0 && $0.isFinite }) else { throw malformed("a negative or non-finite radiance") }
            levels.append(HDRImage(width: w, height: h, texels: texels))
        }
        guard at == body else { throw malformed("trailing bytes") }
        self.init(irradiance: irradiance, specularLevels: levels, key: key)
    }

    static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return hash
    }
}
