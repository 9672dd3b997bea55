import AssetCore

/// How a usdz package lays out its files: where each entry's bytes start, whether they are
/// compressed or encrypted. The usdz rules (stored, 64-byte aligned) are about these facts, and
/// libzip does not expose an entry's data offset, so this reads the zip's central directory and
/// local headers itself (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16 and the Zip64 records of 4.3.14-15).
/// It only reads: nothing is decompressed, and every offset is checked against the bytes.
public struct USDZPackageLayout: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflated, and so on (APPNOTE 4.4.5).
        public var compressionMethod: Int
        public var isEncrypted: Bool
        public var compressedSize: Int
        public var size: Int
        /// Where the entry's bytes start, counted from the package's first byte.
        public var dataOffset: Int
    }

    public var entries: [Entry]

    /// Reads the layout of the zip in `bytes`; `location` names it in errors.
    public init(bytes: [UInt8], location: String, maxEntries: Int = ReadLimits().maxPackageEntries) throws(AssetError) {
        let here = SourceLocation(file: location)
        func malformed(_ why: String) -> AssetError { AssetError(.malformed("not a readable usdz package: \(why)"), at: here) }
        let reader = LittleEndianBytes(bytes: bytes)
        guard let end = Self.endOfCentralDirectory(reader) else { throw malformed("no end of central directory record") }
        var count = reader.u16(end + 10)!
        var directorySize = Int(reader.u32(end + 12)!)
        var directoryOffset = Int(reader.u32(end + 16)!)
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            guard let zip64 = Self.zip64End(reader, before: end) else { throw malformed("Zip64 end of central directory record is missing") }
            guard let total = reader.u64(zip64 + 32), let size = reader.u64(zip64 + 40), let offset = reader.u64(zip64 + 48),
                  total <= UInt64(Int32.max), size <= UInt64(bytes.count), offset <= UInt64(bytes.count) else {
                throw malformed("Zip64 end of central directory record is damaged")
            }
            count = Int(total)
            directorySize = Int(size)
            directoryOffset = Int(offset)
        }
        guard count <= maxEntries else {
            throw AssetError(.limitExceeded("\(count) package entries (at most \(maxEntries))"), at: here)
        }
        guard directoryOffset + directorySize <= bytes.count else { throw malformed("central directory lies past the end of the file") }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var cursor = directoryOffset
        for index in 0..<count {
            guard reader.u32(cursor) == 0x0201_4B50, let nameLength = reader.u16(cursor + 28),
                  let extraLength = reader.u16(cursor + 30), let commentLength = reader.u16(cursor + 32),
                  let name = reader.text(cursor + 46, count: nameLength) else {
                throw malformed("central directory entry \(index) is damaged")
            }
            var compressedSize = Int(reader.u32(cursor + 20)!)
            var size = Int(reader.u32(cursor + 24)!)
            var localOffset = Int(reader.u32(cursor + 42)!)
            // Zip64 extended information (APPNOTE 4.5.3): present fields follow in a fixed order,
            // only for the values the fixed header marks as 0xFFFFFFFF.
            if let extra = Self.field(0x0001, in: reader, at: cursor + 46 + nameLength, count: extraLength) {
                var at = extra
                func next() throws(AssetError) -> Int {
                    guard let value = reader.u64(at), value <= UInt64(Int.max) else { throw malformed("Zip64 fields of '\(name)' are damaged") }
                    at += 8
                    return Int(value)
                }
                if size == 0xFFFF_FFFF { size = try next() }
                if compressedSize == 0xFFFF_FFFF { compressedSize = try next() }
                if localOffset == 0xFFFF_FFFF { localOffset = try next() }
            }
            guard reader.u32(localOffset) == 0x0403_4B50, let localName = reader.u16(localOffset + 26),
                  let localExtra = reader.u16(localOffset + 28) else {
                throw malformed("local header of '\(name)' is missing or damaged")
            }
            let dataOffset = localOffset + 30 + localName + localExtra
            guard dataOffset <= bytes.count else { throw malformed("the data of '\(name)' starts past the end of the file") }
            let flags = reader.u16(cursor + 8)!
            entries.append(Entry(name: name, compressionMethod: reader.u16(cursor + 10)!, isEncrypted: flags & 1 != 0,
                                 compressedSize: compressedSize, size: size, dataOffset: dataOffset))
            cursor += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries.filter { !$0.name.hasSuffix("/") }  // folder entries carry no file
    }

    /// The end of central directory record: searched backwards over the comment it may carry.
    private static func endOfCentralDirectory(_ reader: LittleEndianBytes) -> Int? {
        let last = reader.bytes.count - 22
        guard last >= 0 else { return nil }
        for start in stride(from: last, through: max(0, last - 0xFFFF), by: -1) where reader.u32(start) == 0x0605_4B50 {
            return start
        }
        return nil
    }

    private static func zip64End(_ reader: LittleEndianBytes, before end: Int) -> Int? {
        guard end >= 20, reader.u32(end - 20) == 0x0706_4B50, let offset = reader.u64(end - 12),
              offset <= UInt64(reader.bytes.count), reader.u32(Int(offset)) == 0x0606_4B50 else { return nil }
        return Int(offset)
    }

    /// Where the data of the extra field `id` starts inside `count` bytes of extra fields at `start`.
    private static func field(_ id: Int, in reader: LittleEndianBytes, at start: Int, count: Int) -> Int? {
        var at = start
        while at + 4 <= start + count, let header = reader.u16(at), let length = reader.u16(at + 2) {
            if header == id { return at + 4 }
            at += 4 + length
        }
        return nil
    }
}

/// Bounds-checked little-endian reads; nil past the end.
private struct LittleEndianBytes {
    let bytes: [UInt8]

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    func u32(_ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    func u64(_ at: Int) -> UInt64? {
        guard at >= 0, at + 8 <= bytes.count else { return nil }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    func text(_ at: Int, count: Int) -> String? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return String(decoding: bytes[at..<(at + count)], as: UTF8.self)
    }
}
