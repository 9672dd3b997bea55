import AssetCore

/// One object of a store read by ranges, pinned to the version its HEAD saw: every range asks
/// for that ETag, so a package re-uploaded while it is read is an error, not a mix of two.
final class StoredRangedObject: RangedBytes {
    let store: any ObjectStore
    let key: String
    let byteCount: Int
    let etag: String
    let name: String

    init(store: any ObjectStore, key: String, byteCount: Int, etag: String) {
        self.store = store
        self.key = key
        self.byteCount = byteCount
        self.etag = etag
        self.name = store.name(of: key)
    }

    func read(_ range: Range<Int>) throws(AssetError) -> [UInt8] {
        let here = SourceLocation(file: name)
        guard range.lowerBound >= 0, range.upperBound <= byteCount else {
            throw AssetError(.malformed("bytes \(range.lowerBound)..<\(range.upperBound) lie past the object's \(byteCount)"), at: here)
        }
        guard let bytes = try store.read(key, range: range, matching: etag) else {
            throw AssetError(.io("the object was removed while it was being read"), at: here)
        }
        guard bytes.count == range.count else {
            throw AssetError(.io("the object changed while it was being read: \(bytes.count) of \(range.count) bytes at \(range.lowerBound)"), at: here)
        }
        return bytes
    }
}
