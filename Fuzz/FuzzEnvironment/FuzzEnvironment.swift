import AssetCore
import AssetImage
import AssetRender

/// libFuzzer entry point for what `--environment` and the prefilter cache read: any bytes must
/// decode (stb_image or OpenEXRCore, at most 256 x 128 texels, halved to 16 wide so a run tries many inputs) to an image that prefilters to finite light
/// and round-trips through the cache format, or fail with an `AssetError`; the same bytes read as a
/// cached prefilter must be refused or round-trip. Built only by `Scripts/fuzz environment`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    do {
        let (image, _) = try EnvironmentDecoder.decode(bytes, maxWidth: 16, maxPixels: 256 * 128)
        if image.texels.count != image.width * image.height * 3 { fatalError("\(image.texels.count) floats for \(image.width) x \(image.height)") }
        if image.texels.contains(where: { !$0.isFinite || $0 < 0 }) { fatalError("a texel survived the clamp") }
        let prefiltered = EnvironmentPrefilter.prefilter(image, key: "fuzz")
        if try PrefilteredEnvironment(serialized: prefiltered.serialized()) != prefiltered { fatalError("the cache format lost something") }
    } catch {
        // Refusing bytes that are not an environment image is the expected outcome for most inputs.
    }
    do {
        let cached = try PrefilteredEnvironment(serialized: bytes)
        if try PrefilteredEnvironment(serialized: cached.serialized()) != cached { fatalError("an accepted cache file does not round-trip") }
    } catch {
        // Nearly every input fails the magic or the checksum.
    }
    return 0
}
