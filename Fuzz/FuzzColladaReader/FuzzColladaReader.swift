import AssetCore
import FormatCollada
import FuzzSupport

/// libFuzzer entry point for the whole Collada read: any bytes must give a scene or an `AssetError`.
/// Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "dae") { url, options throws(AssetError) in FuzzInput.exercise(try ColladaReader().read(from: url, options: options).scene) }
    return 0
}
