import AssetCore

/// DirectDraw Surface textures, as Unity and Unreal projects and their FBX exports carry them: the
/// first surface's largest mip, decoded to straight RGBA. Block-compressed BC1 (DXT1), BC2 (DXT3),
/// BC3 (DXT5), BC4 (ATI1, grey) and BC5 (ATI2, a normal map's X and Y, with Z rebuilt), by
/// FourCC or by the DX10 header's DXGI format, and uncompressed 32- and 24-bit RGB(A) and 8-bit
/// luminance by their bit masks.
///
/// Written here because no Debian library decodes them from C: libsquish and DirectXTex are C++,
/// stb_image does not read DDS, and the block formats are a few pages of the Direct3D
/// specification (facts from its "Block Compression" chapter and the DDS header reference).
public enum DDSDecoder {
    public static func isDDS(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("DDS ".utf8)) }

    package enum Layout: Equatable {
        case bc1, bc2, bc3, bc4, bc5
        case masked(bits: Int, masks: [UInt32])  // red, green, blue, alpha; alpha 0 = opaque
        case rgba8, bgra8, bgrx8

        var blockBytes: Int? {
            switch self {
            case .bc1, .bc4: return 8
            case .bc2, .bc3, .bc5: return 16
            default: return nil
            }
        }
    }

    public static func decode(_ bytes: [UInt8], maxPixels: Int = LegacyImageDecoder.maxPixels) throws(AssetError) -> RGBAImage {
        guard isDDS(bytes), bytes.count >= 128 else { throw AssetError(.malformed("the DDS header is cut short (\(bytes.count) bytes)")) }
        func u32(_ at: Int) -> UInt32 { UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
        guard u32(4) == 124 else { throw AssetError(.malformed("the DDS header says it is \(u32(4)) bytes, not 124")) }
        let height = Int(u32(12)), width = Int(u32(16))
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16, width * height <= maxPixels else {
            throw AssetError(.limitExceeded("the DDS image is \(width) x \(height) pixels (at most \(maxPixels))"))
        }
        let (layout, dataStart) = try Self.layout(u32, count: bytes.count)
        let data = bytes[dataStart...]
        // The data is checked against the header before the pixels are allocated: a 40-byte file
        // claiming 65536 x 4096 texels is refused, not given a gigabyte.
        let needed: Int
        if let blockBytes = layout.blockBytes {
            needed = (width + 3) / 4 * ((height + 3) / 4) * blockBytes
        } else if case .masked(let bits, _) = layout {
            needed = width * height * bits / 8
        } else {
            needed = width * height * 4
        }
        guard data.count >= needed else {
            throw AssetError(.malformed("the DDS data holds \(data.count) bytes; \(width) x \(height) texels need \(needed)"))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if let blockBytes = layout.blockBytes {
            pixels.withUnsafeMutableBufferPointer { out in
                data.withUnsafeBufferPointer { blocks in
                    decodeBlocks(layout, blocks, width: width, height: height, blockBytes: blockBytes, into: out)
                }
            }
        } else {
            decodeUncompressed(layout, data, width: width, height: height, into: &pixels)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The pixel layout the header names, and where the first surface starts.
    private static func layout(_ u32: (Int) -> UInt32, count: Int) throws(AssetError) -> (Layout, Int) {
        let flags = u32(80), fourCC = u32(84)
        let name = String(decoding: [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: fourCC >> $0) }, as: UTF8.self)
        if flags & 0x4 != 0 {
            switch name {
            case "DXT1": return (.bc1, 128)
            case "DXT2", "DXT3": return (.bc2, 128)
            case "DXT4", "DXT5": return (.bc3, 128)
            case "ATI1", "BC4U": return (.bc4, 128)
            case "ATI2", "BC5U": return (.bc5, 128)
            case "DX10":
                guard count >= 148 else { throw AssetError(.malformed("the DDS DX10 header is cut short")) }
                switch u32(128) {
                case 70, 71, 72: return (.bc1, 148)
                case 73, 74, 75: return (.bc2, 148)
                case 76, 77, 78: return (.bc3, 148)
                case 79, 80: return (.bc4, 148)
                case 82, 83: return (.bc5, 148)
                case 27, 28, 29: return (.rgba8, 148)
                case 87, 90, 91: return (.bgra8, 148)
                case 88, 92, 93: return (.bgrx8, 148)
                case let format:
                    throw AssetError(.unsupportedFeature("DDS DXGI format \(format) (BC6H, BC7, signed, float and packed formats are not read; BC1-BC5 and 8-bit RGBA are)"))
                }
            default:
                throw AssetError(.unsupportedFeature("DDS FourCC '\(name.filter { $0.isASCII && !$0.isWhitespace })' (BC1-BC5 and uncompressed RGB are read)"))
            }
        }
        let bits = Int(u32(88))
        let alpha = flags & 0x1 != 0 ? u32(104) : 0
        if flags & 0x40 != 0, bits == 32 || bits == 24 {
            return (.masked(bits: bits, masks: [u32(92), u32(96), u32(100), alpha]), 128)
        }
        if flags & 0x20000 != 0, bits == 8 {
            return (.masked(bits: 8, masks: [u32(92), u32(92), u32(92), 0]), 128)
        }
        throw AssetError(.unsupportedFeature("a DDS pixel format of \(bits) bits with flags 0x\(String(flags, radix: 16)) (BC1-BC5, 32- and 24-bit RGB and 8-bit luminance are read)"))
    }

    // MARK: block compression

    private static func decodeBlocks(_ layout: Layout, _ blocks: UnsafeBufferPointer<UInt8>, width: Int, height: Int, blockBytes: Int,
                                     into out: UnsafeMutableBufferPointer<UInt8>) {
        let across = (width + 3) / 4, down = (height + 3) / 4
        var texels = [UInt8](repeating: 0, count: 64)  // one block, 16 RGBA texels
        var red = [UInt8](repeating: 0, count: 16), green = [UInt8](repeating: 0, count: 16)
        for by in 0..<down {
            for bx in 0..<across {
                let block = UnsafeBufferPointer(rebasing: blocks[((by * across + bx) * blockBytes)...])
                switch layout {
                case .bc1:
                    colorBlock(block, fourColors: false, into: &texels)
                case .bc2:
                    colorBlock(UnsafeBufferPointer(rebasing: block[8...]), fourColors: true, into: &texels)
                    for i in 0..<16 {
                        let nibble = (block[i / 2] >> (4 * UInt8(i % 2))) & 0xF
                        texels[4 * i + 3] = nibble * 17
                    }
                case .bc3:
                    colorBlock(UnsafeBufferPointer(rebasing: block[8...]), fourColors: true, into: &texels)
                    valueBlock(block, into: &red)
                    for i in 0..<16 { texels[4 * i + 3] = red[i] }
                case .bc4:
                    valueBlock(block, into: &red)
                    for i in 0..<16 { texels[4 * i] = red[i]; texels[4 * i + 1] = red[i]; texels[4 * i + 2] = red[i]; texels[4 * i + 3] = 255 }
                case .bc5:
                    valueBlock(block, into: &red)
                    valueBlock(UnsafeBufferPointer(rebasing: block[8...]), into: &green)
                    for i in 0..<16 {
                        // A two-channel normal map: Z is what keeps the normal unit length.
                        let x = Float(red[i]) / 127.5 - 1, y = Float(green[i]) / 127.5 - 1
                        let z = max(1 - x * x - y * y, 0).squareRoot()
                        texels[4 * i] = red[i]; texels[4 * i + 1] = green[i]
                        texels[4 * i + 2] = UInt8((z * 0.5 + 0.5) * 255 + 0.5); texels[4 * i + 3] = 255
                    }
                default:
                    return
                }
                for row in 0..<4 where by * 4 + row < height {
                    for column in 0..<4 where bx * 4 + column < width {
                        let o = ((by * 4 + row) * width + bx * 4 + column) * 4, t = (row * 4 + column) * 4
                        out[o] = texels[t]; out[o + 1] = texels[t + 1]; out[o + 2] = texels[t + 2]; out[o + 3] = texels[t + 3]
                    }
                }
            }
        }
    }

    /// BC1's colour block: two RGB565 end points and 2-bit indices. With `fourColors` false and
    /// the first end point not above the second, index 3 is transparent black (BC1's punch-through).
    private static func colorBlock(_ block: UnsafeBufferPointer<UInt8>, fourColors: Bool, into texels: inout [UInt8]) {
        let c0 = UInt16(block[0]) | UInt16(block[1]) << 8, c1 = UInt16(block[2]) | UInt16(block[3]) << 8
        func expand(_ c: UInt16) -> SIMD3<Int> {
            let r = Int(c >> 11 & 31), g = Int(c >> 5 & 63), b = Int(c & 31)
            return SIMD3(r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)
        }
        let a = expand(c0), b = expand(c1)
        var palette: [SIMD4<Int>] = [SIMD4(a, 255), SIMD4(b, 255)]
        if fourColors || c0 > c1 {
            palette.append(SIMD4((2 &* a &+ b) / 3, 255))
            palette.append(SIMD4((a &+ 2 &* b) / 3, 255))
        } else {
            palette.append(SIMD4((a &+ b) / 2, 255))
            palette.append(SIMD4(0, 0, 0, 0))
        }
        let indices = UInt32(block[4]) | UInt32(block[5]) << 8 | UInt32(block[6]) << 16 | UInt32(block[7]) << 24
        for i in 0..<16 {
            let c = palette[Int(indices >> (2 * UInt32(i)) & 3)]
            texels[4 * i] = UInt8(c.x); texels[4 * i + 1] = UInt8(c.y); texels[4 * i + 2] = UInt8(c.z); texels[4 * i + 3] = UInt8(c.w)
        }
    }

    /// BC3's alpha block, also BC4's and BC5's channels: two 8-bit end points and 3-bit indices,
    /// eight interpolated values, or six with 0 and 255 when the first end point is not above the second.
    private static func valueBlock(_ block: UnsafeBufferPointer<UInt8>, into values: inout [UInt8]) {
        let v0 = Int(block[0]), v1 = Int(block[1])
        var palette = [v0, v1]
        if v0 > v1 {
            for k in 1...6 { palette.append(((7 - k) * v0 + k * v1) / 7) }
        } else {
            for k in 1...4 { palette.append(((5 - k) * v0 + k * v1) / 5) }
            palette += [0, 255]
        }
        var bits: UInt64 = 0
        for k in 0..<6 { bits |= UInt64(block[2 + k]) << (8 * UInt64(k)) }
        for i in 0..<16 { values[i] = UInt8(palette[Int(bits >> (3 * UInt64(i)) & 7)]) }
    }

    // MARK: uncompressed

    private static func decodeUncompressed(_ layout: Layout, _ data: ArraySlice<UInt8>, width: Int, height: Int,
                                           into pixels: inout [UInt8]) {
        let stride: Int
        switch layout {
        case .masked(let bits, _): stride = bits / 8
        default: stride = 4
        }
        let base = data.startIndex
        for i in 0..<(width * height) {
            let o = base + i * stride
            switch layout {
            case .rgba8:
                for c in 0..<4 { pixels[4 * i + c] = data[o + c] }
            case .bgra8, .bgrx8:
                pixels[4 * i] = data[o + 2]; pixels[4 * i + 1] = data[o + 1]; pixels[4 * i + 2] = data[o]
                pixels[4 * i + 3] = layout == .bgrx8 ? 255 : data[o + 3]
            case .masked(_, let masks):
                var value: UInt32 = 0
                for k in 0..<stride { value |= UInt32(data[o + k]) << (8 * UInt32(k)) }
                for c in 0..<4 { pixels[4 * i + c] = masks[c] == 0 ? 255 : Self.channel(value, mask: masks[c]) }
            default:
                return
            }
        }
    }

    /// A channel under its bit mask, scaled to 8 bits.
    private static func channel(_ value: UInt32, mask: UInt32) -> UInt8 {
        let shift = UInt32(mask.trailingZeroBitCount), top = (mask >> shift)
        guard top > 0 else { return 0 }
        return UInt8((UInt64((value & mask) >> shift) * 255 + UInt64(top) / 2) / UInt64(top))
    }
}
