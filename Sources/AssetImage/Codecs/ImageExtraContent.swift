/// What `ImageDecoder.decode` leaves out of an image that holds more than one picture: a GIF's
/// frames after the first, a multi-page TIFF's pages after the first, a DDS cube map's other faces,
/// array layers or volume slices. Read from the containers' own structure (GIF blocks, the TIFF
/// IFD chain, the DDS header's caps and DX10 fields) without decoding pixels, so converters can
/// name in their warning what a texture lost.
extension ImageDecoder {
    /// "the first of 12 GIF frames", or nil when the image is one picture (or cannot be walked).
    public static func leftOut(of bytes: [UInt8]) -> String? {
        if DDSDecoder.isDDS(bytes) { return ddsSurfaces(bytes) }
        if TIFFDecoder.isTIFF(bytes), let pages = tiffPages(bytes), pages > 1 { return "the first of \(pages) TIFF pages" }
        if bytes.starts(with: Array("GIF8".utf8)), let frames = gifFrames(bytes), frames > 1 { return "the first of \(frames) GIF frames" }
        return nil
    }

    private static func ddsSurfaces(_ b: [UInt8]) -> String? {
        guard b.count >= 128 else { return nil }
        func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        let caps2 = u32(112), fourCC = Array(b[84..<88])
        var parts: [String] = []
        if fourCC == Array("DX10".utf8), b.count >= 148 {
            let isCube = u32(136) & 0x4 != 0, layers = u32(140)
            if isCube { parts.append("6 cube faces") }
            if layers > 1 { parts.append("\(layers) \(isCube ? "cubes" : "array layers")") }
        } else if caps2 & 0x200 != 0 {
            // DDSCAPS2_CUBEMAP with one bit a face present (0x400 ... 0x8000).
            let faces = (10...15).filter { caps2 & (1 << $0) != 0 }.count
            if faces > 1 { parts.append("\(faces) cube faces") }
        }
        if caps2 & 0x200000 != 0, u32(24) > 1 { parts.append("\(u32(24)) volume slices") }
        return parts.isEmpty ? nil : "the first of " + parts.joined(separator: " x ")
    }

    /// Pages in the IFD chain (classic and BigTIFF), stopping at a loop, a cut or 65,536 pages.
    package static func tiffPages(_ b: [UInt8]) -> Int? {
        guard b.count >= 8 else { return nil }
        let little = b[0] == 0x49
        func number(_ at: Int, _ size: Int) -> Int? {
            // Offsets come from the file: compared without adding, so a huge one cannot overflow.
            guard at >= 0, size <= b.count, at <= b.count - size else { return nil }
            var value = 0
            for k in 0..<size { value |= Int(b[at + (little ? k : size - 1 - k)]) << (8 * k) }
            return value
        }
        guard let version = number(2, 2) else { return nil }
        let big = version == 43
        guard let first = big ? number(8, 8) : number(4, 4) else { return nil }
        var offset = first, pages = 0
        var seen: Set<Int> = []
        while offset > 0, offset < b.count, pages < 65_536, seen.insert(offset).inserted {
            guard let entries = big ? number(offset, 8) : number(offset, 2), entries >= 0, entries < 1 << 20 else { break }
            pages += 1
            let next = big ? number(offset + 8 + entries * 20, 8) : number(offset + 2 + entries * 12, 4)
            guard let next else { break }
            offset = next
        }
        return pages
    }

    /// Image descriptors in a GIF's block stream, stopping at the trailer or a cut.
    package static func gifFrames(_ b: [UInt8]) -> Int? {
        guard b.count >= 13 else { return nil }
        var at = 13
        if b[10] & 0x80 != 0 { at += 3 << (Int(b[10] & 0x07) + 1) }
        func skipSubBlocks() {
            while at < b.count {
                let size = Int(b[at])
                at += 1 + size
                if size == 0 { return }
            }
        }
        var frames = 0
        while at < b.count {
            switch b[at] {
            case 0x21:  // extension: label, then sub-blocks
                at += 2
                skipSubBlocks()
            case 0x2C:  // image descriptor, optional local colour table, LZW code size, sub-blocks
                guard at + 10 <= b.count else { return frames }
                frames += 1
                let packed = b[at + 9]
                at += 10
                if packed & 0x80 != 0 { at += 3 << (Int(packed & 0x07) + 1) }
                at += 1
                skipSubBlocks()
            default:  // the trailer (0x3B), or bytes that are no block
                return frames
            }
        }
        return frames
    }
}
