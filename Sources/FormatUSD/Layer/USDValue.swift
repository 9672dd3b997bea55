/// A value as a USD layer spells it, before the attribute's declared type gives it meaning.
/// Numeric arrays are flat contiguous buffers: a `point3f[]` of n points is 3n Doubles.
public indirect enum USDValue: Sendable, Equatable {
    case none
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A bare word in a value position (`Mesh`, `component` unquoted in dictionaries).
    case word(String)
    case asset(String)
    case path(String)
    /// One parenthesised group of numbers, nested groups flattened: a `float3`, a `quatf`
    /// (real part first), a `matrix4d` (16 numbers in file order).
    case tuple([Double])
    /// `[...]` of numbers or of equal-sized numeric groups: `components` numbers per element.
    case numbers([Double], components: Int)
    /// An `int[]` read straight into 32-bit integers (topology arrays are the bulk of a mesh).
    case integers([Int32])
    /// A single-precision array (`float[]`, `texCoord2f[]`, `point3f[]`...) read from text straight
    /// into the buffer the scene keeps (`USDFloatArray`).
    case floats(USDFloatArray)
    /// Any other list: strings, tokens, assets, paths, mixed tuples.
    case list([USDValue])
    case dictionary([USDDictionaryEntry])

    public var stringValue: String? {
        switch self {
        case .string(let s), .word(let s), .asset(let s), .path(let s): return s
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .tuple(let t) where t.count == 1: return t[0]
        default: return nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let d): return d != 0
        case .word(let w): return w == "true" ? true : w == "false" ? false : nil
        default: return nil
        }
    }

    /// Numbers of a scalar, tuple or numeric array, flattened.
    public var flatNumbers: [Double]? {
        switch self {
        case .number(let d): return [d]
        case .tuple(let t): return t
        case .numbers(let n, _): return n
        case .integers(let n): return n.map(Double.init)
        case .floats(let f): return f.doubles
        case .list(let items) where items.isEmpty: return []
        default: return nil
        }
    }

    /// Whole numbers that fit Int32, without a detour through Double for `int[]` values;
    /// `.failure` names the first element that is not one.
    package var int32Array: Result<[Int32], USDArrayConversion.ConversionFailure>? {
        switch self {
        case .integers(let n): return .success(n)
        case .numbers(let n, 1): return USDArrayConversion.int32(n)
        case .number(let d): return USDArrayConversion.int32([d])
        case .list(let items) where items.isEmpty: return .success([])
        default: return nil
        }
    }

    /// An `int[]` (or a single number) as 32-bit integers; nil when it is not one, or an element
    /// is not a whole number that fits.
    public var int32s: [Int32]? {
        guard case .success(let values)? = int32Array else { return nil }
        return values
    }

    /// Strings of a string/token/asset list, or a single one.
    public var strings: [String]? {
        switch self {
        case .list(let items):
            var out: [String] = []
            for item in items { guard let s = item.stringValue else { return nil }; out.append(s) }
            return out
        case .numbers(let n, _) where n.isEmpty: return []
        case .floats(let f) where f.count == 0: return []
        default: return stringValue.map { [$0] }
        }
    }

    public func dictionaryValue(_ key: String) -> USDValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// Single-precision numbers in the shapes the scene model keeps, so a mesh takes its points,
/// normals and texture coordinates without a copy. Each number is the Double its text spells,
/// narrowed to Float: what OpenUSD's text reader gives, and what converting the Double did.
public enum USDFloatArray: Sendable, Equatable {
    case scalars([Float])
    case pairs([SIMD2<Float>])
    case triples([SIMD3<Float>])

    /// The shape an array type is read into; nil for types kept as Double (double, half and
    /// four-component types).
    public init?(emptyOf arrayType: String) {
        switch arrayType {
        case "float[]": self = .scalars([])
        case "float2[]", "texCoord2f[]": self = .pairs([])
        case "float3[]", "point3f[]", "normal3f[]", "vector3f[]", "color3f[]", "texCoord3f[]": self = .triples([])
        default: return nil
        }
    }

    /// Elements.
    public var count: Int {
        switch self {
        case .scalars(let v): return v.count
        case .pairs(let v): return v.count
        case .triples(let v): return v.count
        }
    }

    public var components: Int {
        switch self {
        case .scalars: return 1
        case .pairs: return 2
        case .triples: return 3
        }
    }

    /// The array `fraction` of the way to `other`, lane by lane, for time samples between two
    /// authored ones; nil when the shapes or counts differ. Each lane is interpolated in Double
    /// and narrowed, as when these arrays were held as Double.
    public func interpolated(to other: USDFloatArray, fraction f: Double) -> USDFloatArray? {
        @inline(__always) func lerp(_ a: Float, _ b: Float) -> Float { Float(Double(a) + (Double(b) - Double(a)) * f) }
        switch (self, other) {
        case (.scalars(let a), .scalars(let b)) where a.count == b.count:
            return .scalars(zip(a, b).map { lerp($0, $1) })
        case (.pairs(let a), .pairs(let b)) where a.count == b.count:
            return .pairs(zip(a, b).map { SIMD2(lerp($0.x, $1.x), lerp($0.y, $1.y)) })
        case (.triples(let a), .triples(let b)) where a.count == b.count:
            return .triples(zip(a, b).map { SIMD3(lerp($0.x, $1.x), lerp($0.y, $1.y), lerp($0.z, $1.z)) })
        default: return nil
        }
    }

    /// The numbers in order, widened: for consumers that work in Double.
    public var doubles: [Double] {
        switch self {
        case .scalars(let v): return v.map(Double.init)
        case .pairs(let v): return Self.widened(v.count, 2) { v[$0][$1] }
        case .triples(let v): return Self.widened(v.count, 3) { v[$0][$1] }
        }
    }

    private static func widened(_ count: Int, _ lanes: Int, _ lane: (Int, Int) -> Float) -> [Double] {
        [Double](unsafeUninitializedCapacity: count * lanes) { out, initialized in
            for i in 0..<count { for k in 0..<lanes { out[i * lanes + k] = Double(lane(i, k)) } }
            initialized = count * lanes
        }
    }
}

public struct USDDictionaryEntry: Sendable, Equatable {
    public var typeName: String
    public var key: String
    public var value: USDValue
}
