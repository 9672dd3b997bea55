import AssetCore
import CWebP

/// Frames as one looping animated WebP through libwebp's animation encoder (libwebpmux): the
/// preview `thumbnail --frames` writes and the gallery and service play. Lossy with alpha at
/// quality 80, which keeps a 24-frame 256-pixel preview small.
public enum AnimatedWebPEncoder {
    public static func encode(_ frames: [RGBAImage], frameMilliseconds: Int) throws(AssetError) -> [UInt8] {
        guard let first = frames.first, frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw AssetError(.malformed("an animated WebP needs frames of one size"))
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw AssetError(.malformed("libwebp's animation encoder does not match its header")) }
        options.anim_params.loop_count = 0  // forever
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw AssetError(.malformed("libwebp could not start an animation of \(first.width)x\(first.height)"))
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw AssetError(.malformed("libwebp's encoder does not match its header")) }
        config.quality = 80
        var timestamp: Int32 = 0
        for frame in frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw AssetError(.malformed("libwebp could not set up a picture")) }
            picture.use_argb = 1
            picture.width = Int32(frame.width)
            picture.height = Int32(frame.height)
            let imported = frame.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4)) }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw AssetError(.malformed("libwebp could not encode a frame: \(String(cString: WebPAnimEncoderGetError(encoder)))"))
            }
            timestamp += Int32(max(frameMilliseconds, 1))
        }
        // A last empty frame tells the encoder how long the final frame lasts.
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw AssetError(.malformed("libwebp could not close the animation"))
        }
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw AssetError(.malformed("libwebp could not assemble the animation: \(String(cString: WebPAnimEncoderGetError(encoder)))"))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}
