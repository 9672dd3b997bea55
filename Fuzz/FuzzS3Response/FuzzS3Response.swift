import AssetCore
import StorageS3

/// libFuzzer entry point for what an S3 server answers: ListObjectsV2 pages (libxml2, url-decoded
/// keys, the prefix rule, continuation tokens) and error documents. Any bytes must give a page, an
/// `AssetError` or nil, and no key a page gives may climb out of its prefix. Built only by
/// `Scripts/fuzz s3`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if let page = try? S3Listing(bytes, prefix: "fixtures/", at: "s3://fuzz/fixtures") {  // damaged pages are the expected outcome
        for object in page.objects where object.key.isEmpty {
            fatalError("a listing gave an empty key")
        }
    }
    _ = S3ErrorDocument(bytes)
    return 0
}
