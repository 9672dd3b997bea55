import AssetCore
import CZlib
#if canImport(Glibc)
import Glibc
#endif

/// Binary FBX 7.x (7100-7700): a 27-byte header, then node records whose end offsets, property
/// counts and list lengths are 32-bit before 7500 and 64-bit from it. Every length is checked
/// against the bytes left and every array against the read budget before anything is allocated;
/// deflated arrays are inflated by the project's zlib into exactly the size their count claims,
/// so one that inflates to more or less is an error. Records nest at most `maxNodeDepth` deep.
struct FBXBinaryParser {
    static let magic: [UInt8] = Array("Kaydara FBX Binary  ".utf8) + [0, 0x1A, 0]

    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let budget: ReadBudget
    let wide: Bool
    var cursor = 27
    var records = 0

    static func parse(_ data: [UInt8], file: String, budget: ReadBudget) throws(AssetError) -> FBXDocument {
        guard data.count >= 27, data.starts(with: magic) else {
            throw AssetError(.malformed("not a binary FBX file (no 'Kaydara FBX Binary' header)"), at: SourceLocation(file: file))
        }
        let version = Int(data[23]) | Int(data[24]) << 8 | Int(data[25]) << 16 | Int(data[26]) << 24
        guard version >= 7100 else {
            throw AssetError(.unsupportedFormat("binary FBX version \(version) (FBX \(version / 1000).\(version / 100 % 10)) predates 7.1; assetc reads binary FBX 7.1 to 7.7 and ASCII FBX 6.1 and 7.x; re-export it as FBX 7.4 or later",
                                                supported: ["fbx 7100-7700"]), at: SourceLocation(file: file, elementPath: "byte 23"))
        }
        return try data.withUnsafeBufferPointer { buffer throws(AssetError) in
            var parser = FBXBinaryParser(bytes: buffer, file: file, budget: budget, wide: version >= 7500)
            let children = try parser.list(until: buffer.count, depth: 0, topLevel: true)
            return FBXDocument(version: version, isBinary: true, root: FBXNode(name: "", children: children, location: SourceLocation(file: file)))
        }
    }

    private var recordHeader: Int { wide ? 25 : 13 }

    private func fail(_ message: String, at offset: Int) -> AssetError {
        AssetError(.malformed(message), at: SourceLocation(file: file, elementPath: "byte \(offset)"))
    }

    /// Records until a null record or `end`. The top level may also end where the footer starts.
    private mutating func list(until end: Int, depth: Int, topLevel: Bool = false) throws(AssetError) -> [FBXNode] {
        guard depth <= budget.limits.maxNodeDepth else { throw fail("records nest deeper than \(budget.limits.maxNodeDepth)", at: cursor) }
        var nodes: [FBXNode] = []
        while cursor + recordHeader <= end {
            let start = cursor
            let endOffset = try word(), propertyCount = try word(), propertyBytes = try word()
            let nameLength = Int(try byte())
            if endOffset == 0 && propertyCount == 0 && propertyBytes == 0 && nameLength == 0 { return nodes }  // the null record
            guard endOffset > start, endOffset <= end else {
                throw fail("a record's end offset \(endOffset) does not lie after its start and within its parent (\(end))", at: start)
            }
            guard nameLength <= endOffset - cursor else { throw fail("a record's name runs past its end", at: start) }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + nameLength)]), as: UTF8.self)
            cursor += nameLength
            guard propertyBytes <= endOffset - cursor, propertyCount <= propertyBytes else {
                throw fail("record \(name) claims \(propertyCount) values in \(propertyBytes) bytes; \(endOffset - cursor) are left", at: start)
            }
            records += 1
            try budget.spend(work: 1, for: "FBX records", at: SourceLocation(file: file, elementPath: "byte \(start)"))
            let valuesEnd = cursor + propertyBytes
            var values: [FBXValue] = []
            values.reserveCapacity(propertyCount)
            for _ in 0..<propertyCount { values.append(try value(end: valuesEnd, record: name)) }
            guard cursor == valuesEnd else { throw fail("record \(name)'s values take \(cursor - (valuesEnd - propertyBytes)) bytes, not the \(propertyBytes) it claims", at: start) }
            let children = cursor < endOffset ? try list(until: endOffset, depth: depth + 1) : []
            cursor = endOffset
            nodes.append(FBXNode(name: name, values: values, children: children, location: SourceLocation(file: file, elementPath: "byte \(start)")))
        }
        guard topLevel else { throw fail("a record list has no end record", at: cursor) }
        return nodes
    }

    private mutating func byte() throws(AssetError) -> UInt8 {
        guard cursor < bytes.count else { throw fail("the file ends inside a record", at: cursor) }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    private mutating func load<T: FixedWidthInteger>(_: T.Type) throws(AssetError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - cursor else { throw fail("the file ends inside a record", at: cursor) }
        defer { cursor += size }
        return T(littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: cursor, as: T.self))
    }

    /// A record header field: 32-bit before 7500, 64-bit from it.
    private mutating func word() throws(AssetError) -> Int {
        if wide {
            let v = try load(UInt64.self)
            guard v <= UInt64(Int.max / 2) else { throw fail("a record length of \(v) bytes", at: cursor - 8) }
            return Int(v)
        }
        return Int(try load(UInt32.self))
    }

    private mutating func value(end: Int, record: String) throws(AssetError) -> FBXValue {
        let start = cursor
        let code = try byte()
        switch code {
        case UInt8(ascii: "Y"): return .integer(Int64(try load(Int16.self)))
        case UInt8(ascii: "C"): return .bool(try byte() & 1 != 0)
        case UInt8(ascii: "I"): return .integer(Int64(try load(Int32.self)))
        case UInt8(ascii: "L"): return .integer(try load(Int64.self))
        case UInt8(ascii: "F"): return .number(Double(Float(bitPattern: try load(UInt32.self))))
        case UInt8(ascii: "D"): return .number(Double(bitPattern: try load(UInt64.self)))
        case UInt8(ascii: "S"), UInt8(ascii: "R"):
            let length = Int(try load(UInt32.self))
            guard length <= end - cursor else { throw fail("a \(length)-byte value of \(record) runs past its record", at: start) }
            let raw = UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + length)])
            cursor += length
            if code == UInt8(ascii: "R") {
                try budget.spend(bytes: length, for: "FBX raw data", at: SourceLocation(file: file, elementPath: "byte \(start)"))
                return .bytes(Array(raw))
            }
            return .string(Self.objectName(raw))
        case UInt8(ascii: "f"): return .floats(try array(Float.self, end: end, start: start, record: record))
        case UInt8(ascii: "d"): return .doubles(try array(Double.self, end: end, start: start, record: record))
        case UInt8(ascii: "i"): return .int32s(try array(Int32.self, end: end, start: start, record: record))
        case UInt8(ascii: "l"): return .int64s(try array(Int64.self, end: end, start: start, record: record))
        case UInt8(ascii: "b"): return .bools(try array(UInt8.self, end: end, start: start, record: record))
        default:
            throw fail("value type '\(Character(Unicode.Scalar(code)))' (0x\(String(code, radix: 16))) of record \(record) is not one FBX has", at: start)
        }
    }

    /// Binary names join name and class as `name\0\u{1}class`; they become `class::name` as in
    /// ASCII files, so both read alike.
    static func objectName(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        if let split = (0..<max(raw.count - 1, 0)).first(where: { raw[$0] == 0 && raw[$0 + 1] == 1 }) {
            let name = String(decoding: UnsafeBufferPointer(rebasing: raw[..<split]), as: UTF8.self)
            let kind = String(decoding: UnsafeBufferPointer(rebasing: raw[(split + 2)...]), as: UTF8.self)
            return kind + "::" + name
        }
        return String(decoding: raw, as: UTF8.self)
    }

    private mutating func array<T>(_: T.Type, end: Int, start: Int, record: String) throws(AssetError) -> [T] {
        let count = Int(try load(UInt32.self)), encoding = try load(UInt32.self), stored = Int(try load(UInt32.self))
        let size = MemoryLayout<T>.stride
        let here = SourceLocation(file: file, elementPath: "byte \(start)")
        guard stored <= end - cursor else { throw fail("\(record)'s array of \(stored) bytes runs past its record", at: start) }
        guard count <= budget.limits.maxArrayElements else {
            throw AssetError(.limitExceeded("\(record)'s array of \(count) elements is past the limit of \(budget.limits.maxArrayElements)"), at: here)
        }
        let bytesOut = count * size
        if encoding == 0 {
            guard stored == bytesOut else { throw fail("\(record)'s array claims \(count) elements but stores \(stored) bytes", at: start) }
        } else if encoding != 1 {
            throw fail("\(record)'s array has encoding \(encoding); FBX has 0 (raw) and 1 (deflate)", at: start)
        }
        try budget.spend(bytes: bytesOut, for: "\(record)'s array of \(count) elements", at: here)
        let source = UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + stored)])
        cursor += stored
        guard count > 0 else { return [] }
        var failure: AssetError?
        let out = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            if encoding == 0 {
                if bytesOut > 0 { raw.copyMemory(from: UnsafeRawBufferPointer(source)) }
            } else {
                var length = uLongf(bytesOut)
                let status = uncompress(raw.baseAddress?.assumingMemoryBound(to: Bytef.self), &length, source.baseAddress, uLong(stored))
                if status == Z_BUF_ERROR && bytesOut > 0 || status == Z_OK && Int(length) != bytesOut {
                    failure = fail(status == Z_OK ? "\(record)'s deflated array inflates to \(length) bytes, not the \(bytesOut) its \(count) elements need"
                                                  : "\(record)'s deflated array inflates past the \(bytesOut) bytes its \(count) elements need", at: start)
                } else if status != Z_OK {
                    failure = fail("\(record)'s deflated array does not inflate (zlib status \(status))", at: start)
                }
                if failure != nil, let base = raw.baseAddress { memset(base, 0, raw.count) }  // never read: the array is thrown away
            }
            initialized = count
        }
        if let failure { throw failure }
        return out
    }
}
