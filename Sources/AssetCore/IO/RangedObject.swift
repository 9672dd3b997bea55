/// Bytes read by ranges from somewhere that is not a local file: a usdz package in a bucket is
/// opened from its central directory and read member by member, so a thumbnail or `info` of a
/// large package fetches the members it needs rather than the whole object.
public protocol RangedObject: AnyObject, Sendable {
    /// The object's whole size, known before any of its bytes are read.
    var byteCount: Int { get }
    /// What messages name: `s3://bucket/prefix/key`.
    var name: String { get }
    /// Bytes `range` (within `0..<byteCount`), all of them, or an error located at `name`.
    func read(_ range: Range<Int>) throws(AssetError) -> [UInt8]
}
