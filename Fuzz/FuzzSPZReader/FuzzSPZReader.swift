import AssetCore
import FormatSPZ
import FuzzSupport

/// libFuzzer entry point for the whole SPZ read (gzip v1-v3 and zstd v4): any bytes must give a
/// scene or an `AssetError`. Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "spz") { url, options throws(AssetError) in _ = try SPZReader().read(from: url, options: options) }
    return 0
}
