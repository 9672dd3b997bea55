import AssetCore
import FormatCollada
import FuzzSupport

/// libFuzzer entry point for the whole Collada read: any bytes must give a scene or an `AssetError`.
/// Each input is read twice: streamed through libxml2, and mapped with every numeric text taken
/// over (thresholds of a byte, so the fuzzer's small inputs reach that path). Built only by
/// `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    for reader in [ColladaReader(), ColladaReader(mappedRead: ColladaMappedRead(fileBytes: 1, textBytes: 1))] {
        FuzzInput.read(data, count, fileExtension: "dae") { url, options throws(AssetError) in FuzzInput.exercise(try reader.read(from: url, options: options).scene) }
    }
    return 0
}
