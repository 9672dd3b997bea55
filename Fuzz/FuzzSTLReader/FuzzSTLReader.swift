import AssetCore
import FormatSTL
import FuzzSupport

/// libFuzzer entry point for the whole STL read: any bytes must give a scene or an `AssetError`.
/// Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "stl") { url, options throws(AssetError) in _ = try STLReader().read(from: url, options: options) }
    return 0
}
