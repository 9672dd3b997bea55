import AssetCore
import CZlib
import Dispatch
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
    /// Deflated arrays of `deferredBytes` and more, inflated after the walk on all cores: a large
    /// file's few big arrays (points, indices, normals, texture coordinates) are most of its reading.
    var pending: [PendingArray] = []
    static let deferredBytes = 256 << 10

    struct PendingArray {
        var code: UInt8
        var count: Int
        var source: Range<Int>
        var start: Int
        var record: String
    }

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
            var children = try parser.list(until: buffer.count, depth: 0, topLevel: true)
            if !parser.pending.isEmpty {
                let arrays = try parser.inflatePending()
                for k in children.indices { Self.resolve(&children[k], arrays) }
            }
            return FBXDocument(version: version, isBinary: true, root: FBXNode(name: "", children: children, location: SourceLocation(file: file)))
        }
    }

    private var recordHeader: Int { wide ? 25 : 13 }

    private func malformed(_ message: String, at offset: Int) -> AssetError {
        AssetError(.malformed(message), at: SourceLocation(file: file, elementPath: "byte \(offset)"))
    }

    /// Records until a null record or `end`. The top level may also end where the footer starts.
    private mutating func list(until end: Int, depth: Int, topLevel: Bool = false) throws(AssetError) -> [FBXNode] {
        guard depth <= budget.limits.maxNodeDepth else { throw malformed("records nest deeper than \(budget.limits.maxNodeDepth)", at: cursor) }
        var nodes: [FBXNode] = []
        while cursor + recordHeader <= end {
            let start = cursor
            let endOffset = try word(), propertyCount = try word(), propertyBytes = try word()
            let nameLength = Int(try byte())
            if endOffset == 0 && propertyCount == 0 && propertyBytes == 0 && nameLength == 0 { return nodes }  // the null record
            guard endOffset > start, endOffset <= end else {
                throw malformed("a record's end offset \(endOffset) does not lie after its start and within its parent (\(end))", at: start)
            }
            guard nameLength <= endOffset - cursor else { throw malformed("a record's name runs past its end", at: start) }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + nameLength)]), as: UTF8.self)
            cursor += nameLength
            guard propertyBytes <= endOffset - cursor, propertyCount <= propertyBytes else {
                throw malformed("record \(name) claims \(propertyCount) values in \(propertyBytes) bytes; \(endOffset - cursor) are left", at: start)
            }
            records += 1
            try budget.spend(work: 1, for: "FBX records", at: SourceLocation(file: file, elementPath: "byte \(start)"))
            let valuesEnd = cursor + propertyBytes
            var values: [FBXValue] = []
            values.reserveCapacity(propertyCount)
            for _ in 0..<propertyCount { values.append(try value(end: valuesEnd, record: name)) }
            guard cursor == valuesEnd else { throw malformed("record \(name)'s values take \(cursor - (valuesEnd - propertyBytes)) bytes, not the \(propertyBytes) it claims", at: start) }
            let children = cursor < endOffset ? try list(until: endOffset, depth: depth + 1) : []
            cursor = endOffset
            nodes.append(FBXNode(name: name, values: values, children: children, location: SourceLocation(file: file, elementPath: "byte \(start)")))
        }
        guard topLevel else { throw malformed("a record list has no end record", at: cursor) }
        return nodes
    }

    private mutating func byte() throws(AssetError) -> UInt8 {
        guard cursor < bytes.count else { throw malformed("the file ends inside a record", at: cursor) }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    private mutating func load<T: FixedWidthInteger>(_: T.Type) throws(AssetError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - cursor else { throw malformed("the file ends inside a record", at: cursor) }
        defer { cursor += size }
        return T(littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: cursor, as: T.self))
    }

    /// A record header field: 32-bit before 7500, 64-bit from it.
    private mutating func word() throws(AssetError) -> Int {
        if wide {
            let v = try load(UInt64.self)
            guard v <= UInt64(Int.max / 2) else { throw malformed("a record length of \(v) bytes", at: cursor - 8) }
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
            guard length <= end - cursor else { throw malformed("a \(length)-byte value of \(record) runs past its record", at: start) }
            let raw = UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + length)])
            cursor += length
            if code == UInt8(ascii: "R") {
                try budget.spend(bytes: length, for: "FBX raw data", at: SourceLocation(file: file, elementPath: "byte \(start)"))
                return .bytes(Array(raw))
            }
            return .string(Self.objectName(raw))
        // `c` is the byte array some exporters write where the SDK writes `b` (assimp's CType test files).
        case UInt8(ascii: "f"), UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "b"), UInt8(ascii: "c"):
            return try array(code, end: end, start: start, record: record)
        default:
            throw malformed("value type '\(Character(Unicode.Scalar(code)))' (0x\(String(code, radix: 16))) of record \(record) is not one FBX has", at: start)
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

    static func elementSize(_ code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "d"), UInt8(ascii: "l"): return 8
        case UInt8(ascii: "b"), UInt8(ascii: "c"): return 1
        default: return 4
        }
    }

    /// An array's header checked against the record and the limits; raw and small deflated arrays
    /// decoded at once, large deflated ones left for `inflatePending`.
    private mutating func array(_ code: UInt8, end: Int, start: Int, record: String) throws(AssetError) -> FBXValue {
        let count = Int(try load(UInt32.self)), encoding = try load(UInt32.self), stored = Int(try load(UInt32.self))
        let here = SourceLocation(file: file, elementPath: "byte \(start)")
        guard stored <= end - cursor else { throw malformed("\(record)'s array of \(stored) bytes runs past its record", at: start) }
        guard count <= budget.limits.maxArrayElements else {
            throw AssetError(.limitExceeded("\(record)'s array of \(count) elements is past the limit of \(budget.limits.maxArrayElements)"), at: here)
        }
        let bytesOut = count * Self.elementSize(code)
        if encoding == 0 {
            guard stored == bytesOut else { throw malformed("\(record)'s array claims \(count) elements but stores \(stored) bytes", at: start) }
        } else if encoding != 1 {
            throw malformed("\(record)'s array has encoding \(encoding); FBX has 0 (raw) and 1 (deflate)", at: start)
        }
        try budget.spend(bytes: bytesOut, for: "\(record)'s array of \(count) elements", at: here)
        let source = cursor..<(cursor + stored)
        cursor += stored
        let array = PendingArray(code: code, count: count, source: source, start: start, record: record)
        if encoding == 1 && bytesOut >= Self.deferredBytes {
            pending.append(array)
            return .pending(pending.count - 1)
        }
        return try Self.decode(array, deflated: encoding == 1, bytes: bytes, file: file)
    }

    /// The pending arrays inflated, the largest first, over every core.
    func inflatePending() throws(AssetError) -> [FBXValue] {
        let jobs = pending, file = file
        let order = jobs.indices.sorted { jobs[$0].count * Self.elementSize(jobs[$0].code) > jobs[$1].count * Self.elementSize(jobs[$1].code) }
        let results = Locked([Result<FBXValue, AssetError>](repeating: .success(.bool(false)), count: jobs.count))
        nonisolated(unsafe) let bytes = bytes  // read only, and alive until concurrentPerform returns
        DispatchQueue.concurrentPerform(iterations: order.count) { k in
            let index = order[k]
            let outcome: Result<FBXValue, AssetError>
            do throws(AssetError) { outcome = .success(try Self.decode(jobs[index], deflated: true, bytes: bytes, file: file)) } catch { outcome = .failure(error) }
            results.withLock { $0[index] = outcome }
        }
        var out: [FBXValue] = []
        out.reserveCapacity(jobs.count)
        for result in results.value {
            switch result {
            case .success(let value): out.append(value)
            case .failure(let error): throw error
            }
        }
        return out
    }

    static func resolve(_ node: inout FBXNode, _ arrays: [FBXValue]) {
        for k in node.values.indices { if case .pending(let index) = node.values[k] { node.values[k] = arrays[index] } }
        for k in node.children.indices { resolve(&node.children[k], arrays) }
    }

    static func decode(_ array: PendingArray, deflated: Bool, bytes: UnsafeBufferPointer<UInt8>, file: String) throws(AssetError) -> FBXValue {
        let source = UnsafeBufferPointer(rebasing: bytes[array.source])
        func fill<T>(_: T.Type) throws(AssetError) -> [T] {
            try decode(T.self, array, deflated: deflated, source: source, file: file)
        }
        switch array.code {
        case UInt8(ascii: "f"): return .floats(try fill(Float.self))
        case UInt8(ascii: "d"): return .doubles(try fill(Double.self))
        case UInt8(ascii: "i"): return .int32s(try fill(Int32.self))
        case UInt8(ascii: "l"): return .int64s(try fill(Int64.self))
        default: return .bools(try fill(UInt8.self))
        }
    }

    private static func decode<T>(_: T.Type, _ array: PendingArray, deflated: Bool, source: UnsafeBufferPointer<UInt8>,
                                  file: String) throws(AssetError) -> [T] {
        let count = array.count, bytesOut = count * MemoryLayout<T>.stride
        guard count > 0 else { return [] }
        func malformed(_ message: String) -> AssetError {
            AssetError(.malformed(message), at: SourceLocation(file: file, elementPath: "byte \(array.start)"))
        }
        var failure: AssetError?
        let out = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            if !deflated {
                raw.copyMemory(from: UnsafeRawBufferPointer(source))
            } else {
                HugePages.advise(raw.baseAddress, byteCount: raw.count)
                var produced = 0
                let status = assetc_inflate_exact(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), bytesOut, source.baseAddress, source.count, &produced)
                switch status {
                case 0: break
                case 1: failure = malformed("\(array.record)'s deflated array inflates past the \(bytesOut) bytes its \(count) elements need")
                case 2: failure = malformed("\(array.record)'s deflated array inflates to \(produced) bytes, not the \(bytesOut) its \(count) elements need")
                default: failure = malformed("\(array.record)'s deflated array does not inflate (zlib status \(status))")
                }
                if failure != nil, let base = raw.baseAddress { memset(base, 0, raw.count) }  // never read: the array is thrown away
            }
            initialized = count
        }
        if let failure { throw failure }
        return out
    }
}
