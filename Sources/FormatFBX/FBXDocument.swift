import AssetCore

/// An FBX file as its records: named nodes with a list of values and child nodes. Binary and ASCII
/// FBX parse into the same shape; everything FBX-specific (objects, connections, properties) is
/// read from it by `FBXObjects`.
struct FBXDocument: Sendable {
    /// 7400 for FBX 7.4; 6100 for 6.1.
    var version: Int
    var isBinary: Bool
    /// The file's top-level records (`FBXHeaderExtension`, `GlobalSettings`, `Objects`, `Connections`...).
    var root: FBXNode
}

struct FBXNode: Sendable {
    var name: String
    var values: [FBXValue]
    var children: [FBXNode]
    /// Where the record starts: a byte offset (binary) or a line (ASCII).
    var location: SourceLocation

    init(name: String, values: [FBXValue] = [], children: [FBXNode] = [], location: SourceLocation) {
        self.name = name
        self.values = values
        self.children = children
        self.location = location
    }

    func child(_ name: String) -> FBXNode? { children.first { $0.name == name } }
    func children(_ name: String) -> [FBXNode] { children.filter { $0.name == name } }

    /// The first value of the named child (`Version: 232`, `MappingInformationType: "ByPolygon"`).
    func value(_ name: String) -> FBXValue? { child(name)?.values.first }
}

/// One value of a record. Arrays stay contiguous in their stored type; ASCII arrays are read as
/// doubles (their text does not say the type), and the accessors convert where a reader needs it.
enum FBXValue: Sendable {
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case bytes([UInt8])
    case int32s([Int32])
    case int64s([Int64])
    case floats([Float])
    case doubles([Double])
    case bools([UInt8])
    /// While the binary parser runs: a large deflated array still to inflate (never seen outside it).
    case pending(Int)

    var int: Int? {
        switch self {
        case .integer(let v): return Int(exactly: v)
        case .number(let v): return v.isFinite && v == v.rounded() && abs(v) < 9e18 ? Int(v) : nil
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    var double: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .number(let v): return v
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    var string: String? {
        if case .string(let v) = self { return v }
        return nil
    }

    /// Any numeric array as doubles.
    var doubles: [Double]? {
        switch self {
        case .doubles(let v): return v
        case .floats(let v): return v.map(Double.init)
        case .int32s(let v): return v.map(Double.init)
        case .int64s(let v): return v.map(Double.init)
        case .bools(let v): return v.map(Double.init)
        case .integer, .number: return double.map { [$0] }
        default: return nil
        }
    }

    /// Any numeric array as Int32, when every element is a whole number in range.
    var int32s: [Int32]? {
        switch self {
        case .int32s(let v): return v
        case .int64s(let v):
            guard v.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }) else { return nil }
            return v.map { Int32($0) }
        case .doubles(let v):
            guard v.allSatisfy({ $0 == $0.rounded() && abs($0) <= Double(Int32.max) }) else { return nil }
            return v.map { Int32($0) }
        case .floats(let v):
            guard v.allSatisfy({ $0 == $0.rounded() && abs($0) <= 2e9 }) else { return nil }
            return v.map { Int32($0) }
        case .integer, .number: return int.flatMap { Int32(exactly: $0) }.map { [$0] }
        default: return nil
        }
    }

    /// Any integer array as Int64 (KeyTime values).
    var int64s: [Int64]? {
        switch self {
        case .int64s(let v): return v
        case .int32s(let v): return v.map(Int64.init)
        case .doubles(let v):
            guard v.allSatisfy({ $0 == $0.rounded() && abs($0) < 9e18 }) else { return nil }
            return v.map { Int64($0) }
        case .integer(let v): return [v]
        default: return nil
        }
    }

    var count: Int {
        switch self {
        case .int32s(let v): return v.count
        case .int64s(let v): return v.count
        case .floats(let v): return v.count
        case .doubles(let v): return v.count
        case .bools(let v): return v.count
        case .bytes(let v): return v.count
        default: return 1
        }
    }
}
