import AssetCore
import AssetImage

/// libFuzzer entry point for the stb_image decoding `validate --fix` runs on textures in older
/// formats (BMP, TGA, GIF, PSD, PNM): any bytes must decode to an image of the size its header
/// gave, then encode as PNG, or fail with an `AssetError`. Built only by `Scripts/fuzz image`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    do {
        let image = try LegacyImageDecoder.decode(bytes)
        if image.pixels.count != image.width * image.height * 4 { fatalError("decoded \(image.pixels.count) bytes for \(image.width) x \(image.height)") }
        _ = try PNGCodec.encode(image)
    } catch {
        // Refusing bytes that are not an image it reads is the expected outcome for most inputs.
    }
    return 0
}
