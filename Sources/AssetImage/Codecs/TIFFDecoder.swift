import AssetCore
import CTIFF

/// TIFF textures through Debian's libtiff, read from memory and decoded by its RGBA interface
/// (every compression, bit depth and photometric interpretation it knows, the first directory
/// only), top row first. The size is checked from the header before a pixel is decoded.
public enum TIFFDecoder {
    public static func isTIFF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B])  // BigTIFF
    }

    /// The bytes and a read position, as libtiff's client procedures see them.
    private final class Stream {
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        init(base: UnsafePointer<UInt8>, count: Int) { self.base = base; self.count = count }
    }

    /// libtiff prints its errors and warnings to stderr unless told not to; they are process-wide.
    private static let silenced: Void = {
        TIFFSetErrorHandler(nil)
        TIFFSetWarningHandler(nil)
    }()

    public static func decode(_ bytes: [UInt8], maxPixels: Int = LegacyImageDecoder.maxPixels) throws(AssetError) -> RGBAImage {
        _ = silenced
        guard !bytes.isEmpty else { throw AssetError(.malformed("the TIFF image is empty")) }
        let outcome: Result<RGBAImage, AssetError> = bytes.withUnsafeBufferPointer { buffer in
            let stream = Stream(base: buffer.baseAddress!, count: buffer.count)
            return withExtendedLifetime(stream) { Result { () throws(AssetError) in try read(stream, maxPixels: maxPixels) } }
        }
        return try outcome.get()
    }

    private static func read(_ stream: Stream, maxPixels: Int) throws(AssetError) -> RGBAImage {
        let handle = Unmanaged.passUnretained(stream).toOpaque()
        guard let tiff = TIFFClientOpen("texture.tif", "rm", handle,
            { h, buffer, size in
                let s = Unmanaged<Stream>.fromOpaque(h!).takeUnretainedValue()
                let n = max(0, min(Int(size), s.count - s.position))
                if n > 0, let buffer { buffer.copyMemory(from: s.base + s.position, byteCount: n) }
                s.position += n
                return tmsize_t(n)
            },
            { _, _, _ in -1 },  // never written
            { h, offset, whence in
                let s = Unmanaged<Stream>.fromOpaque(h!).takeUnretainedValue()
                let base = whence == SEEK_CUR ? s.position : whence == SEEK_END ? s.count : 0
                let target = Int64(base) + Int64(bitPattern: offset)
                guard target >= 0, target <= Int64(s.count) else { return toff_t(bitPattern: -1) }
                s.position = Int(target)
                return toff_t(target)
            },
            { _ in 0 },
            { h in toff_t(Unmanaged<Stream>.fromOpaque(h!).takeUnretainedValue().count) },
            { _, _, _ in 0 },  // no mapping: every read goes through the procedures above
            { _, _, _ in })
        else { throw AssetError(.malformed("the TIFF image has no readable header")) }
        defer { TIFFClose(tiff) }
        var width: UInt32 = 0, height: UInt32 = 0
        guard assetc_tiff_size(tiff, &width, &height) != 0 else {
            throw AssetError(.malformed("the TIFF image has no width or height"))
        }
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            throw AssetError(.limitExceeded("the TIFF image is \(width) x \(height) pixels (at most \(maxPixels))"))
        }
        var raster = [UInt32](repeating: 0, count: Int(width) * Int(height))
        let decoded = raster.withUnsafeMutableBufferPointer {
            TIFFReadRGBAImageOriented(tiff, width, height, $0.baseAddress, Int32(assetc_tiff_orientation_topleft), 0)
        }
        guard decoded == 1 else { throw AssetError(.malformed("the TIFF image does not decode (libtiff refuses its pixel data)")) }
        // libtiff packs each pixel as the value 0xAABBGGRR (its TIFFGetR and friends), with colour
        // premultiplied by alpha (it multiplies an unassociated alpha in): divided back out here,
        // since textures are straight alpha. Faint pixels lose a little precision on the way.
        var pixels = [UInt8](repeating: 0, count: raster.count * 4)
        for (i, v) in raster.enumerated() {
            let a = UInt32(v >> 24)
            for c in 0..<3 {
                let p = v >> (8 * UInt32(c)) & 0xFF
                pixels[4 * i + c] = a == 255 || a == 0 ? UInt8(p) : UInt8(min((p * 255 + a / 2) / a, 255))
            }
            pixels[4 * i + 3] = UInt8(a)
        }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
