import AssetCore
import AssetImage

/// libFuzzer entry point for the texture decoders `convert` and the renderer run on what game and
/// DCC exporters write (issue 52): DDS (BC1-BC5, uncompressed) and TIFF (libtiff) at a 1-megapixel
/// budget so a run tries many inputs, and through `ImageDecoder` everything else it tells apart by
/// content (PNG, JPEG, WebP, stb_image's BMP/TGA/GIF/PSD). Any bytes must decode to an image of the
/// size it reports, then encode as PNG and decode back to the same pixels, or fail with an `AssetError`; `ImageDecoder.leftOut` must
/// return on any bytes. Built only by `Scripts/fuzz texture`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    // The walk of GIF blocks, TIFF IFD chains and DDS cube headers that names what decoding leaves out.
    _ = ImageDecoder.leftOut(of: bytes)
    do {
        let image: RGBAImage
        if DDSDecoder.isDDS(bytes) {
            image = try DDSDecoder.decode(bytes, maxPixels: 1 << 20)
        } else if TIFFDecoder.isTIFF(bytes) {
            image = try TIFFDecoder.decode(bytes, maxPixels: 1 << 20)
        } else {
            image = try ImageDecoder.decode(bytes)
        }
        if image.pixels.count != image.width * image.height * 4 { fatalError("decoded \(image.pixels.count) bytes for \(image.width) x \(image.height)") }
        if image.width * image.height <= 1 << 20 {
            // assetc's PNG writer and reader (libdeflate) must give every pixel back.
            let back = try PNGCodec.decode(try PNGCodec.encode(image))
            if back.width != image.width || back.height != image.height || back.pixels != image.pixels { fatalError("the PNG round trip changed pixels") }
        }
    } catch {
        // Refusing bytes that are not an image it reads is the expected outcome for most inputs.
    }
    return 0
}
