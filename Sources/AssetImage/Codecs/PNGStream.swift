import AssetCore
import CDeflate
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// PNG's container written and, for the layouts textures come in, read here around libdeflate,
/// rather than through libpng, whose only compressor is zlib: libdeflate compresses and
/// decompresses zlib streams several times faster at the same level, and in the budget pipeline
/// (two 4096 px textures decoded, resized and encoded again) zlib was a third of the texture work.
/// PNG's own part is small and fixed by the specification (ISO/IEC 15948): the signature, chunks
/// with a CRC-32, an IHDR, the filtered rows as one zlib stream in IDAT chunks, an IEND. Anything
/// beyond 8-bit RGB and RGBA without colour metadata is left to libpng (`PNGCodec`).
enum PNGStream {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The per-row filter the encoder applies (ISO/IEC 15948 section 9.2).
    enum Filter: UInt8 {
        case up = 2
        case paeth = 4
    }

    // MARK: Writing

    /// An 8-bit RGBA PNG of `pixels`, every row filtered by `filter`, compressed at libdeflate's
    /// `level`; nil only when libdeflate cannot allocate its compressor.
    static func encode(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, filter: Filter, level: Int32) -> [UInt8]? {
        let stride = width * 4, rowBytes = stride + 1
        var filtered = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
            guard let source = pixels.baseAddress, let target = out.baseAddress else { initialized = 0; return }
            for y in 0..<height {
                let row = source + y * stride, line = target + y * rowBytes
                line[0] = filter.rawValue
                let above: UnsafePointer<UInt8>? = y > 0 ? row - stride : nil
                Self.filterRow(row, above: above, into: line + 1, count: stride, filter: filter)
            }
            initialized = rowBytes * height
        }
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let compressed: [UInt8] = filtered.withUnsafeMutableBufferPointer { data in
            let bound = libdeflate_zlib_compress_bound(compressor, data.count)
            return [UInt8](unsafeUninitializedCapacity: bound) { out, initialized in
                initialized = libdeflate_zlib_compress(compressor, data.baseAddress, data.count, out.baseAddress, bound)
            }
        }
        filtered = []
        guard !compressed.isEmpty else { return nil }
        var png = signature
        png.reserveCapacity(signature.count + 3 * 12 + 13 + compressed.count)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits a sample, RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// One row filtered as ISO/IEC 15948 section 9.2 defines it, 4 bytes a pixel; `above` is nil
    /// for the first row, which filters against zeros.
    @inline(__always)
    static func filterRow(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, into out: UnsafeMutablePointer<UInt8>, count: Int, filter: Filter) {
        switch filter {
        case .up:
            if let above { for i in 0..<count { out[i] = row[i] &- above[i] } } else { out.update(from: row, count: count) }
        case .paeth:
            for i in 0..<count {
                let a = i >= 4 ? row[i - 4] : 0, b = above?[i] ?? 0, c = i >= 4 ? above?[i - 4] ?? 0 : 0
                out[i] = row[i] &- paeth(a, b, c)
            }
        }
    }

    /// The Paeth predictor: whichever of left, above and upper-left is nearest a + b - c, in that
    /// order on ties.
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// The CRC runs over the type and then the data, so the (large) IDAT is not copied to join them.
    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png.appendBigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        let typed = typeBytes.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        png.appendBigEndian(data.withUnsafeBufferPointer { libdeflate_crc32(typed, $0.baseAddress, $0.count) })
    }

    // MARK: Reading

    /// `bytes` decoded to RGBA when they are an 8-bit RGB or RGBA PNG, not interlaced, with none of
    /// the chunks that ask libpng to change the colours it hands back (gAMA, cHRM, iCCP, sBIT,
    /// tRNS) and a stream that inflates to exactly its rows; nil for anything else, which libpng
    /// then reads (and names the damage of).
    static func decodeCommon(_ bytes: [UInt8], maxPixels: Int) -> RGBAImage? {
        bytes.withUnsafeBufferPointer { raw -> RGBAImage? in
            guard raw.count > 33, raw.starts(with: signature) else { return nil }
            var offset = signature.count
            var width = 0, height = 0, channels = 0
            var stream: [UInt8] = []
            var sawHeader = false, sawEnd = false
            while offset + 12 <= raw.count {
                let length = Int(raw.loadBigEndian(at: offset)), type = raw.loadBigEndian(at: offset + 4)
                let data = offset + 8
                guard length <= raw.count - data - 4 else { return nil }
                // A critical chunk whose CRC is wrong is damage, which libpng reports.
                if type == 0x4948_4452 || type == 0x4944_4154 {
                    let crc = libdeflate_crc32(0, raw.baseAddress! + offset + 4, length + 4)
                    guard crc == raw.loadBigEndian(at: data + length) else { return nil }
                }
                switch type {
                case 0x4948_4452:  // IHDR
                    guard !sawHeader, length == 13 else { return nil }
                    width = Int(raw.loadBigEndian(at: data))
                    height = Int(raw.loadBigEndian(at: data + 4))
                    let (depth, colour, compression, filtering, interlace) = (raw[data + 8], raw[data + 9], raw[data + 10], raw[data + 11], raw[data + 12])
                    guard depth == 8, colour == 2 || colour == 6, compression == 0, filtering == 0, interlace == 0,
                          width > 0, height > 0, width <= maxPixels, height <= maxPixels, width * height <= maxPixels else { return nil }
                    channels = colour == 6 ? 4 : 3
                    sawHeader = true
                case 0x4944_4154:  // IDAT
                    guard sawHeader else { return nil }
                    stream.append(contentsOf: UnsafeBufferPointer(rebasing: raw[data..<(data + length)]))
                case 0x4945_4E44:  // IEND
                    sawEnd = true
                case 0x6741_4D41, 0x6348_524D, 0x6943_4350, 0x7342_4954, 0x7452_4E53:  // gAMA cHRM iCCP sBIT tRNS
                    return nil
                default:
                    break
                }
                if sawEnd { break }
                offset = data + length + 4
            }
            guard sawHeader, sawEnd, !stream.isEmpty else { return nil }
            let stride = width * channels, rowBytes = stride + 1
            guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
            defer { libdeflate_free_decompressor(decompressor) }
            // Inflated straight into the pixels' own buffer: RGBA rows at its start, where they are
            // undone in place; RGB rows at its end, from where each row, undone, widens to RGBA
            // behind the rows not yet read. One buffer for a 4096 px texture, not two.
            let size = max(width * height * 4, rowBytes * height), start = size - rowBytes * height
            var failed = false
            var pixels = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
                var written = 0
                let result = stream.withUnsafeBufferPointer { input in
                    libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, out.baseAddress! + start, rowBytes * height, &written)
                }
                failed = result != LIBDEFLATE_SUCCESS || written != rowBytes * height
                initialized = size
            }
            stream = []
            guard !failed else { return nil }
            let ok = channels == 4 ? unfilterRGBAInPlace(&pixels, width: width, height: height) : widenRGBInPlace(&pixels, width: width, height: height, from: start)
            return ok ? RGBAImage(width: width, height: height, pixels: pixels) : nil
        }
    }

    /// RGB rows inflated at `start` of `buffer` undone and widened to RGBA from its first byte on:
    /// ISO/IEC 15948 section 9.3's filters against the row above, kept apart as RGB. Row y's RGBA
    /// ends no later than row y + 1's inflated bytes begin, so nothing is written before it is read.
    static func widenRGBInPlace(_ buffer: inout [UInt8], width: Int, height: Int, from start: Int) -> Bool {
        let stride = width * 3, rowBytes = stride + 1
        var current = [UInt8](repeating: 0, count: stride), previous = [UInt8](repeating: 0, count: stride)
        return buffer.withUnsafeMutableBufferPointer { data in
            let base = data.baseAddress!
            for y in 0..<height {
                let line = base + start + y * rowBytes
                let ok = current.withUnsafeMutableBufferPointer { row in
                    previous.withUnsafeBufferPointer { above in
                        unfilterRow(line + 1, type: line[0], above: above.baseAddress!, into: row.baseAddress!, count: stride, bytesPerPixel: 3)
                    }
                }
                guard ok else { return false }
                let target = base + y * width * 4
                current.withUnsafeBufferPointer { row in
                    for x in 0..<width {
                        target[4 * x] = row[3 * x]; target[4 * x + 1] = row[3 * x + 1]; target[4 * x + 2] = row[3 * x + 2]; target[4 * x + 3] = 255
                    }
                }
                swap(&current, &previous)
            }
            return true
        }
    }

    /// RGBA rows inflated at the start of `buffer` undone in place: each row moves one byte nearer
    /// the start for each filter byte before it, so it is written only over bytes already read, and
    /// the row above is the one just written; the `height` spare bytes at the end are then dropped.
    static func unfilterRGBAInPlace(_ buffer: inout [UInt8], width: Int, height: Int) -> Bool {
        let stride = width * 4, rowBytes = stride + 1
        let zeros = [UInt8](repeating: 0, count: stride)
        let ok = buffer.withUnsafeMutableBufferPointer { data in
            zeros.withUnsafeBufferPointer { zeros in
                let base = data.baseAddress!
                for y in 0..<height {
                    let line = base + y * rowBytes, target = base + y * stride
                    let type = line[0]
                    // Moved down first (the two overlap, hence memmove), then undone in place
                    // against the row above, already final.
                    memmove(target, line + 1, stride)
                    let above = y > 0 ? UnsafePointer(target - stride) : zeros.baseAddress!
                    guard unfilterRow(UnsafePointer(target), type: type, above: above, into: target, count: stride, bytesPerPixel: 4) else { return false }
                }
                return true
            }
        }
        guard ok else { return false }
        buffer.removeLast(height)
        return true
    }

    /// One row's filter undone into `out`, `above` the previous row as decoded (zeros for the first).
    @inline(__always)
    static func unfilterRow(_ row: UnsafePointer<UInt8>, type: UInt8, above: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                            count: Int, bytesPerPixel bpp: Int) -> Bool {
        switch type {
        case 0: out.update(from: row, count: count)
        case 1:
            for i in 0..<count { out[i] = row[i] &+ (i >= bpp ? out[i - bpp] : 0) }
        case 2:
            for i in 0..<count { out[i] = row[i] &+ above[i] }
        case 3:
            for i in 0..<count { out[i] = row[i] &+ UInt8((Int(i >= bpp ? out[i - bpp] : 0) + Int(above[i])) / 2) }
        case 4:
            for i in 0..<bpp where i < count { out[i] = row[i] &+ above[i] }
            if count > bpp { for i in bpp..<count { out[i] = row[i] &+ paeth(out[i - bpp], above[i], above[i - bpp]) } }
        default: return false
        }
        return true
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8((value >> 16) & 0xFF)); append(UInt8((value >> 8) & 0xFF)); append(UInt8(value & 0xFF))
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    func loadBigEndian(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
}
