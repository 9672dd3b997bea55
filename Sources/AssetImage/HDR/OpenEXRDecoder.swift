import AssetCore
import COpenEXRCore

/// OpenEXR environments through OpenEXRCore, the C half of Debian's OpenEXR 3 (every compression it
/// knows: ZIP, PIZ, PXR24, B44, DWA...). Scanline and tiled parts are read at full resolution into
/// one interleaved float buffer: R, G and B (or luminance Y, repeated); alpha and other layers are
/// not light and are left out. Deep images and chroma-subsampled channels are refused.
package enum OpenEXRDecoder {
    package static let magic: [UInt8] = [0x76, 0x2F, 0x31, 0x01]

    package static func isEXR(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    package struct Decoded {
        var width: Int
        var height: Int
        /// `width * height * 3` floats, rows top to bottom.
        var texels: [Float]
        var notes: [String]
    }

    /// The file's bytes as OpenEXRCore's custom stream reads them, and the last message it reported
    /// (its default handler would print to stderr; assetc puts the message in the error instead).
    private final class Stream {
        let base: UnsafePointer<UInt8>
        let count: Int
        var message = ""
        init(base: UnsafePointer<UInt8>, count: Int) { self.base = base; self.count = count }
    }

    package static func decode(_ bytes: [UInt8], source: String?, maxPixels: Int) throws(AssetError) -> Decoded {
        let here = SourceLocation(file: source)
        let outcome: Result<Decoded, AssetError> = bytes.withUnsafeBufferPointer { buffer in
            let stream = Stream(base: buffer.baseAddress!, count: buffer.count)
            return withExtendedLifetime(stream) {
                Result { () throws(AssetError) in try read(stream, here: here, maxPixels: maxPixels) }
            }
        }
        return try outcome.get()
    }

    private static func read(_ stream: Stream, here: SourceLocation, maxPixels: Int) throws(AssetError) -> Decoded {
        var initializer = assetc_exr_default_initializer()
        initializer.user_data = Unmanaged.passUnretained(stream).toOpaque()
        initializer.read_fn = { _, userData, buffer, size, offset, _ in
            let stream = Unmanaged<Stream>.fromOpaque(userData!).takeUnretainedValue()
            guard offset < UInt64(stream.count), let buffer else { return offset == UInt64(stream.count) ? 0 : -1 }
            let n = Int(min(size, UInt64(stream.count) - offset))
            buffer.copyMemory(from: stream.base + Int(offset), byteCount: n)
            return Int64(n)
        }
        initializer.size_fn = { _, userData in
            Int64(Unmanaged<Stream>.fromOpaque(userData!).takeUnretainedValue().count)
        }
        initializer.error_handler_fn = { context, _, message in
            var userData: UnsafeMutableRawPointer?
            guard exr_get_user_data(context, &userData) == EXR_ERR_SUCCESS.rawValue, let userData, let message else { return }
            Unmanaged<Stream>.fromOpaque(userData).takeUnretainedValue().message = String(cString: message)
        }
        // Refused in the header already: a side past 64k texels is past any budget here.
        initializer.max_image_width = 1 << 16
        initializer.max_image_height = 1 << 16
        initializer.max_tile_width = 1 << 16
        initializer.max_tile_height = 1 << 16

        func fail(_ code: exr_result_t, _ what: String) -> AssetError {
            let detail = stream.message.isEmpty ? String(cString: exr_get_default_error_message(code)) : stream.message
            return AssetError(.malformed("the OpenEXR environment \(what): \(detail)"), at: here)
        }

        var context: exr_context_t?
        let opened = exr_start_read(&context, "environment.exr", &initializer)
        defer { if context != nil { exr_finish(&context) } }
        guard opened == EXR_ERR_SUCCESS.rawValue, let context else { throw fail(opened, "does not open") }

        var notes: [String] = []
        var parts: Int32 = 0
        exr_get_count(context, &parts)
        if parts > 1 { notes.append("the OpenEXR file has \(parts) parts; the first is the environment") }
        var storage = EXR_STORAGE_SCANLINE
        var rv = exr_get_storage(context, 0, &storage)
        guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "has no readable part") }
        guard storage == EXR_STORAGE_SCANLINE || storage == EXR_STORAGE_TILED else {
            throw AssetError(.unsupportedFeature("the OpenEXR environment is a deep image, which holds no single radiance per texel"), at: here)
        }

        var window = exr_attr_box2i_t()
        rv = exr_get_data_window(context, 0, &window)
        guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "has no data window") }
        let width = Int(window.max.x) - Int(window.min.x) + 1
        let height = Int(window.max.y) - Int(window.min.y) + 1
        guard width > 0, height > 0, width * height <= maxPixels else {
            throw AssetError(.limitExceeded("the environment image is \(width) x \(height) texels; at most \(maxPixels) are read"), at: here)
        }

        let slots = try channelSlots(context, here: here)
        if slots.dropped > 0 { notes.append("\(slots.dropped) OpenEXR channels that are not R, G, B or Y are not light and are left out") }
        var texels = [Float](repeating: 0, count: width * height * 3)
        var scratch = [Float](repeating: 0, count: slots.dropped > 0 ? width * height : 0)
        try texels.withUnsafeMutableBufferPointer { (out) throws(AssetError) in
          try scratch.withUnsafeMutableBufferPointer { (scratch) throws(AssetError) in
            let layout = Layout(out: out.baseAddress!, scratch: scratch.baseAddress ?? out.baseAddress!, width: width, height: height, originX: Int(window.min.x), originY: Int(window.min.y), here: here)
            if storage == EXR_STORAGE_SCANLINE {
                try readScanlines(context, layout: layout, slots: slots, fail: fail)
            } else {
                try readTiles(context, layout: layout, slots: slots, fail: fail)
            }
          }
        }
        if slots.luminanceOnly {
            for i in stride(from: 0, to: texels.count, by: 3) { texels[i + 1] = texels[i]; texels[i + 2] = texels[i] }
        }
        return Decoded(width: width, height: height, texels: texels, notes: notes)
    }

    /// Which channel fills which of the three floats: the plain `R`, `G`, `B` when present, else the
    /// first layer's (`diffuse.R`); a luminance `Y` fills red and is copied to green and blue.
    private struct Slots {
        var names: [String: Int] = [:]
        var luminanceOnly = false
        var dropped = 0
    }

    private static func channelSlots(_ context: exr_const_context_t, here: SourceLocation) throws(AssetError) -> Slots {
        var list: UnsafePointer<exr_attr_chlist_t>?
        guard exr_get_channels(context, 0, &list) == EXR_ERR_SUCCESS.rawValue, let list, let entries = list.pointee.entries else {
            throw AssetError(.malformed("the OpenEXR environment lists no channels"), at: here)
        }
        let names = (0..<Int(list.pointee.num_channels)).map { entries[$0].name.str.map { String(cString: $0) } ?? "" }
        // OpenEXRCore 3.1 trusts these when it picks an unpacker; a damaged type is refused here.
        for (i, name) in names.enumerated() {
            let entry = entries[i]
            guard entry.pixel_type.rawValue < EXR_PIXEL_LAST_TYPE.rawValue else {
                throw AssetError(.malformed("the OpenEXR channel \(name) has pixel type \(entry.pixel_type.rawValue), not uint, half or float"), at: here)
            }
            guard entry.x_sampling == 1, entry.y_sampling == 1 else {
                throw AssetError(.unsupportedFeature("the OpenEXR channel \(name) is subsampled (\(entry.x_sampling) x \(entry.y_sampling)); environments are read from full-resolution RGB"), at: here)
            }
        }
        var slots = Slots()
        func pick(_ letter: String, _ slot: Int) {
            if let exact = names.first(where: { $0 == letter }) { slots.names[exact] = slot; return }
            if let layered = names.first(where: { $0.hasSuffix("." + letter) }) { slots.names[layered] = slot }
        }
        pick("R", 0); pick("G", 1); pick("B", 2)
        if slots.names.isEmpty {
            pick("Y", 0)
            slots.luminanceOnly = !slots.names.isEmpty
        }
        guard !slots.names.isEmpty else {
            throw AssetError(.malformed("the OpenEXR environment has no R, G, B or Y channel (it has \(names.joined(separator: ", ")))"), at: here)
        }
        slots.dropped = names.count - slots.names.count
        return slots
    }

    private struct Layout {
        let out: UnsafeMutablePointer<Float>
        /// One float per texel where the channels that are not light are decoded and forgotten:
        /// OpenEXRCore 3.1.5 crashes on some channel lists when a channel is left unbound.
        let scratch: UnsafeMutablePointer<Float>
        let width: Int
        let height: Int
        let originX: Int
        let originY: Int
        let here: SourceLocation
    }

    /// Points the decoder's channels at their floats for the chunk whose top-left texel is (x, y)
    /// in the data window; channels with no slot go to the scratch plane.
    private static func bind(_ decoder: inout exr_decode_pipeline_t, layout: Layout, x: Int, y: Int, slots: Slots,
                             here: SourceLocation) throws(AssetError) {
        for c in 0..<Int(decoder.channel_count) {
            let name = decoder.channels[c].channel_name.map { String(cString: $0) } ?? ""
            // A damaged chunk table can name a chunk whose rows lie past the window: never write there.
            let channel = decoder.channels[c]
            guard x >= 0, y >= 0, channel.width >= 0, channel.height >= 0,
                  x + Int(channel.width) <= layout.width, y + Int(channel.height) <= layout.height else {
                throw AssetError(.malformed("the OpenEXR environment has a chunk at (\(x), \(y)) of \(channel.width) x \(channel.height) texels outside its \(layout.width) x \(layout.height) data window"), at: here)
            }
            let slot = slots.names[name]
            let first = slot.map { layout.out + ((y * layout.width + x) * 3 + $0) } ?? layout.scratch + (y * layout.width + x)
            let stride = slot == nil ? 1 : 3
            decoder.channels[c].decode_to_ptr = UnsafeMutableRawPointer(first).assumingMemoryBound(to: UInt8.self)
            decoder.channels[c].user_pixel_stride = Int32(4 * stride)
            decoder.channels[c].user_line_stride = Int32(layout.width * 4 * stride)
            decoder.channels[c].user_bytes_per_element = 4
            decoder.channels[c].user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
        }
    }

    private typealias Failure = (exr_result_t, String) -> AssetError

    private static func run(_ context: exr_const_context_t, chunk: inout exr_chunk_info_t, decoder: inout exr_decode_pipeline_t,
                            first: Bool, layout: Layout, x: Int, y: Int, slots: Slots, fail: Failure) throws(AssetError) {
        var rv = first ? exr_decoding_initialize(context, 0, &chunk, &decoder) : exr_decoding_update(context, 0, &chunk, &decoder)
        guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "has a damaged chunk at row \(y)") }
        try bind(&decoder, layout: layout, x: x, y: y, slots: slots, here: layout.here)
        rv = exr_decoding_choose_default_routines(context, 0, &decoder)
        guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "cannot be decoded") }
        rv = exr_decoding_run(context, 0, &decoder)
        guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "does not decode at row \(y)") }
    }

    private static func readScanlines(_ context: exr_const_context_t, layout: Layout, slots: Slots,
                                      fail: Failure) throws(AssetError) {
        var lines: Int32 = 1
        exr_get_scanlines_per_chunk(context, 0, &lines)
        var decoder = exr_decode_pipeline_t()
        defer { exr_decoding_destroy(context, &decoder) }
        for row in stride(from: 0, to: layout.height, by: max(1, Int(lines))) {
            var chunk = exr_chunk_info_t()
            let rv = exr_read_scanline_chunk_info(context, 0, Int32(layout.originY + row), &chunk)
            guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "has no readable chunk at row \(row)") }
            // A chunk starts on a multiple of its line count from the window's top, which row is.
            try run(context, chunk: &chunk, decoder: &decoder, first: row == 0, layout: layout,
                    x: 0, y: Int(chunk.start_y) - layout.originY, slots: slots, fail: fail)
        }
    }

    private static func readTiles(_ context: exr_const_context_t, layout: Layout, slots: Slots,
                                  fail: Failure) throws(AssetError) {
        var tileWidth: Int32 = 0, tileHeight: Int32 = 0
        var rv = exr_get_tile_sizes(context, 0, 0, 0, &tileWidth, &tileHeight)
        guard rv == EXR_ERR_SUCCESS.rawValue, tileWidth > 0, tileHeight > 0 else { throw fail(rv, "has no tile size") }
        let across = (layout.width + Int(tileWidth) - 1) / Int(tileWidth)
        let down = (layout.height + Int(tileHeight) - 1) / Int(tileHeight)
        var decoder = exr_decode_pipeline_t()
        defer { exr_decoding_destroy(context, &decoder) }
        var first = true
        for ty in 0..<down {
            for tx in 0..<across {
                var chunk = exr_chunk_info_t()
                rv = exr_read_tile_chunk_info(context, 0, Int32(tx), Int32(ty), 0, 0, &chunk)
                guard rv == EXR_ERR_SUCCESS.rawValue else { throw fail(rv, "has no readable tile (\(tx), \(ty))") }
                try run(context, chunk: &chunk, decoder: &decoder, first: first, layout: layout,
                        x: tx * Int(tileWidth), y: ty * Int(tileHeight), slots: slots, fail: fail)
                first = false
            }
        }
    }
}
