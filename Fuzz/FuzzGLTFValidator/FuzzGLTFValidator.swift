import AssetCore
import AssetValidate
import FuzzSupport

/// libFuzzer entry point for glTF validation: the JSON parser, the GLB walk, the schema, link and
/// data checks and the compressed streams must give findings or an `AssetError` for any bytes.
/// The input is named `.gltf`, so a GLB is recognised by its magic alone and everything else meets
/// the JSON parser. Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "gltf") { url, options throws(AssetError) in
        _ = try GLTFValidator(options: options).validate(path: url.path)
    }
    return 0
}
