import AssetCore

/// The facts of an SPZ file's header, from either of its two layouts: the 16-byte one at the
/// start of the gzip stream of versions 1 to 3, and the 32-byte plain one of version 4, which
/// adds the number of zstd attribute streams and where their table of contents is. Little endian
/// throughout; the magic is `NGSP`.
struct SPZHeader {
    static let magic: UInt32 = 0x5053_474E
    static let legacySize = 16
    static let streamedSize = 32
    /// Niantic's loader bounds the count by the bytes a point needs at the least after the
    /// deflate or zstd ratio a real stream cannot pass; the same bound refuses a header that
    /// claims billions of splats in a small file before anything is reserved.
    static let maxCompressionRatio = 1024
    static let minBytesPerSplat = 9

    var version: Int
    var count: Int
    /// As stored; degree 4 is read as 3 (`SPZDecoder`).
    var shDegree: Int
    var fractionalBits: Int
    var flags: UInt8
    /// Version 4 only.
    var streamCount = 0
    var tableOffset = 0

    var antialiased: Bool { flags & 0x1 != 0 }
    var hasExtensions: Bool { flags & 0x2 != 0 }
    /// Coefficients per splat beyond the first, as stored: 0, 3, 8, 15 or 24.
    var restCoefficients: Int { (shDegree + 1) * (shDegree + 1) - 1 }
    var usesHalfPositions: Bool { version == 1 }
    var usesSmallestThree: Bool { version >= 3 }

    /// Bytes of each attribute array, in file order: positions, alphas, colours, scales,
    /// rotations, SH.
    var attributeSizes: [Int] {
        [count * (usesHalfPositions ? 6 : 9), count, count * 3, count * 3, count * (usesSmallestThree ? 4 : 3), count * restCoefficients * 3]
    }

    /// The legacy header at the start of a decompressed v1-v3 payload.
    init(legacy bytes: ArraySlice<UInt8>, file: String) throws(AssetError) {
        guard bytes.count >= Self.legacySize else { throw Self.malformed("the stream ends inside its 16-byte header", file) }
        let b = bytes.startIndex
        guard Self.u32(bytes, b) == Self.magic else { throw Self.malformed("no NGSP magic at the start of the decompressed stream", file) }
        version = Int(Self.u32(bytes, b + 4))
        count = Int(Self.u32(bytes, b + 8))
        shDegree = Int(bytes[b + 12])
        fractionalBits = Int(bytes[b + 13])
        flags = bytes[b + 14]
        guard (1...3).contains(version) else {
            throw Self.malformed("gzip SPZ of version \(version); versions 1 to 3 are gzip, 4 has a plain NGSP header", file)
        }
        try check(file)
    }

    /// The plain header of a v4 file.
    init(streamed bytes: [UInt8], file: String) throws(AssetError) {
        guard bytes.count >= Self.streamedSize else { throw Self.malformed("the file ends inside its 32-byte header", file) }
        version = Int(Self.u32(bytes[...], 4))
        count = Int(Self.u32(bytes[...], 8))
        shDegree = Int(bytes[12])
        fractionalBits = Int(bytes[13])
        flags = bytes[14]
        streamCount = Int(bytes[15])
        tableOffset = Int(Self.u32(bytes[...], 16))
        guard version == 4 else {
            throw AssetError(.unsupportedFeature("SPZ version \(version) with a plain header; assetc reads versions 1 to 4"), at: SourceLocation(file: file, elementPath: "byte 4"))
        }
        try check(file)
    }

    private func check(_ file: String) throws(AssetError) {
        guard (0...4).contains(shDegree) else { throw Self.malformed("spherical-harmonic degree \(shDegree); SPZ has 0 to 4", file) }
        guard fractionalBits <= 24 else { throw Self.malformed("\(fractionalBits) fractional bits in a 24-bit position", file) }
    }

    static func u32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    static func malformed(_ message: String, _ file: String) -> AssetError {
        AssetError(.malformed(message), at: SourceLocation(file: file))
    }
}
