import AssetCore
import FormatPLY
import FuzzSupport

/// libFuzzer entry point for the whole PLY read: any bytes must give a scene or an `AssetError`.
/// Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "ply") { url, options throws(AssetError) in _ = try PLYReader().read(from: url, options: options) }
    return 0
}
