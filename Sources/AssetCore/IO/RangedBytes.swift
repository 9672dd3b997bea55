/// A file's bytes as a reader asks for them by range rather than whole: the part of the read
/// capability (`ReadOptions.staged`) through which the usdz reader opens a large package from its
/// central directory and reads only the members it needs. Where the bytes come from (an object in
/// a bucket, here) is the caller's business; the reader sees a size, a name and ranges.
public protocol RangedBytes: AnyObject, Sendable {
    /// The whole size, known before any of the bytes are read.
    var byteCount: Int { get }
    /// What messages name the file by (`s3://bucket/prefix/key` for an object).
    var name: String { get }
    /// Bytes `range` (within `0..<byteCount`), all of them, or an error located at `name`.
    func read(_ range: Range<Int>) throws(AssetError) -> [UInt8]
}
