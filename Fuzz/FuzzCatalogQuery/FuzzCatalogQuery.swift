import AssetCatalog
import AssetCore

/// libFuzzer entry point for the catalog's query language: any text must compile to SQL or fail
/// with a located `AssetError` (never a crash or runaway recursion). Built only by `Scripts/fuzz query`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    do {
        _ = try CatalogQuery.compile(text, sort: "-triangles", limit: 10)
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
    }
    return 0
}
