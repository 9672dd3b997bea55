import AssetCore
import CTurboJPEG

/// JPEG textures through libjpeg-turbo's TurboJPEG API.
public enum JPEGDecoder {
    public static func decode(_ bytes: [UInt8]) throws(AssetError) -> RGBAImage {
        guard let handle = tjInitDecompress() else { throw AssetError(.io("cannot start the JPEG decoder")) }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else { throw AssetError(.malformed("not a readable JPEG")) }
        guard Int(width) * Int(height) <= PNGCodec.maxPixels else { throw AssetError(.limitExceeded("JPEG of \(width)x\(height) pixels")) }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer {
                tjDecompress2(handle, $0.baseAddress, UInt(bytes.count), out.baseAddress, width, 0, height, assetc_tj_pixel_rgba, 0)
            }
        }
        guard status == 0 else { throw AssetError(.malformed("damaged JPEG")) }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
