import AssetCore
import FormatFBX
import FuzzSupport

/// libFuzzer entry point for the whole FBX read, binary and ASCII: any bytes must give a scene or an
/// `AssetError`. Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "fbx") { url, options throws(AssetError) in _ = try FBXReader().read(from: url, options: options) }
    return 0
}
