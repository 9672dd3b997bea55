import AssetCore
import CTurboJPEG

/// JPEG through libjpeg-turbo's TurboJPEG API: the smaller encoding for textures with no alpha.
public enum JPEGEncoder {
    /// `quality` 1-100. Colour is subsampled 4:2:0 as cameras and gltfpack do; `fullChroma` keeps
    /// 4:4:4 for maps whose channels are separate numbers (normals, packed roughness and metalness).
    public static func encode(_ image: RGBAImage, quality: Int, fullChroma: Bool = false) throws(AssetError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw AssetError(.io("cannot start the JPEG encoder")) }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let subsampling = fullChroma ? assetc_tj_subsampling_444 : assetc_tj_subsampling_420
        let status = image.pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height), assetc_tj_pixel_rgba,
                        &buffer, &size, subsampling, Int32(min(max(quality, 1), 100)), 0)
        }
        defer { tjFree(buffer) }
        guard status == 0, let buffer else {
            throw AssetError(.io("JPEG encoding failed: \(String(cString: tjGetErrorStr2(handle)))"))
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
