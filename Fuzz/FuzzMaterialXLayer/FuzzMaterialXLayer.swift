import AssetCore
import FormatUSD

/// libFuzzer entry point for MaterialX documents read as USD layers (`references = @x.mtlx@`):
/// libxml2's tree reader and the translation into Material, Shader and NodeGraph prims. Any bytes must
/// give a layer or an `AssetError`, and a layer's prims must print as usda. Built only by `Scripts/fuzz mtlx`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    do {
        let layer = try MaterialXLayerReader.parse(bytes, location: .file(path: "/fuzz/materials.mtlx"))
        _ = USDAPrinter.print(layer)
    } catch {
        // A damaged document is the expected outcome for most inputs.
    }
    return 0
}
