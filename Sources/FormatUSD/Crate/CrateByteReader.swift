import AssetCore

/// A little-endian cursor over a crate file's bytes in which every read, seek and count is checked
/// against the file's size first, so a crafted offset or count becomes an error naming its byte
/// offset instead of a crash or a huge allocation.
struct CrateByteReader {
    let bytes: UnsafeRawBufferPointer
    let file: String
    var position = 0

    init(bytes: UnsafeRawBufferPointer, file: String) {
        self.bytes = bytes
        self.file = file
    }

    var count: Int { bytes.count }
    var remaining: Int { bytes.count - position }

    func malformed(_ why: String, at offset: Int? = nil) -> AssetError {
        AssetError(.malformed("usdc: \(why)"), at: SourceLocation(file: file, elementPath: "byte offset \(offset ?? position)"))
    }

    mutating func seek(_ offset: UInt64) throws(AssetError) {
        guard offset <= UInt64(bytes.count) else {
            throw malformed("offset \(offset) is past the end of the \(bytes.count)-byte file")
        }
        position = Int(offset)
    }

    /// Throws unless `count` elements of `size` bytes fit between the cursor and the end of the file.
    func require(_ count: UInt64, of size: Int, _ what: @autoclosure () -> String) throws(AssetError) {
        let (total, overflow) = count.multipliedReportingOverflow(by: UInt64(size))
        guard !overflow, total <= UInt64(remaining) else {
            throw malformed("\(what()) claims \(count) × \(size) bytes but only \(remaining) remain in the file")
        }
    }

    @inline(__always)
    mutating func load<T: FixedWidthInteger>(_: T.Type) throws(AssetError) -> T {
        guard remaining >= MemoryLayout<T>.size else {
            throw malformed("unexpected end of file reading \(MemoryLayout<T>.size) bytes")
        }
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        position += MemoryLayout<T>.size
        return value
    }

    mutating func u8() throws(AssetError) -> UInt8 { try load(UInt8.self) }
    mutating func u32() throws(AssetError) -> UInt32 { try load(UInt32.self) }
    mutating func i32() throws(AssetError) -> Int32 { try load(Int32.self) }
    mutating func u64() throws(AssetError) -> UInt64 { try load(UInt64.self) }
    mutating func i64() throws(AssetError) -> Int64 { try load(Int64.self) }
    mutating func f64() throws(AssetError) -> Double { Double(bitPattern: try load(UInt64.self)) }

    /// The next `count` bytes, consumed.
    mutating func slice(_ count: UInt64, _ what: @autoclosure () -> String) throws(AssetError) -> UnsafeRawBufferPointer {
        try require(count, of: 1, what())
        let start = position
        position += Int(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    /// A count prefix that must describe at least `minimumBytes` bytes each of what follows.
    mutating func count(of what: @autoclosure () -> String, elementSize minimumBytes: Int) throws(AssetError) -> Int {
        let n = try u64()
        try require(n, of: max(minimumBytes, 0), what())
        guard n <= UInt64(Int.max) else { throw malformed("\(what()) count \(n) is impossible") }
        return Int(n)
    }
}
