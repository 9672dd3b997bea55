import AssetCore
import FormatUSD
import FuzzSupport

/// libFuzzer entry point for the whole USD read of a usda layer: composition, the scene builder
/// (meshes, materials, UsdSkel skeletons, skins, blend shapes, animation) and posing at a few
/// times. Any bytes must give a scene or an `AssetError`. Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "usda") { url, options throws(AssetError) in FuzzInput.exercise(try USDReader().read(from: url, options: options).scene) }
    return 0
}
