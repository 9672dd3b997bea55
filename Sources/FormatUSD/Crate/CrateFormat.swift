/// The fixed vocabulary of OpenUSD's binary "crate" layer format (`.usdc`): version, value type
/// numbers, the 64-bit value representation and spec kinds. Numbers are the file format's own and
/// never change between versions; new ones are only added.
enum CrateFormat {
    static let magic: [UInt8] = Array("PXR-USDC".utf8)
    /// Bootstrap header: magic, 8 version bytes, table-of-contents offset, 8 reserved Int64s.
    static let bootstrapSize = 88
    /// Section names are at most 15 bytes, stored NUL-padded in 16.
    static let sectionNameSize = 16
    /// Arrays shorter than this are never stored compressed.
    static let minCompressedArraySize = 16

    /// Oldest and newest versions read. 0.4.0 compressed the structural sections; the files usd-core
    /// writes are 0.8.0 unless their content needs more (0.9 timecodes, 0.10 path expressions).
    static let oldestReadable = Version(0, 4, 0)
    static let newestReadable = Version(0, 10, 0)
    /// What assetc writes: payload list ops with layer offsets need 0.8.0.
    static let written = Version(0, 8, 0)

    /// The version that introduced a value type, where it is later than the oldest read: a file
    /// whose header claims less than its values need was not written by a crate writer, and is
    /// refused rather than decoded by the older version's layout.
    static let introduced: [CrateType: Version] = [
        .payloadListOp: Version(0, 8, 0), .timeCode: Version(0, 9, 0), .pathExpression: Version(0, 10, 0),
    ]
    /// Compressed integer arrays came in 0.5.0, compressed floating-point ones in 0.6.0.
    static let compressedIntegers = Version(0, 5, 0)
    static let compressedFloats = Version(0, 6, 0)
}

struct Version: Comparable, CustomStringConvertible {
    var major: UInt8, minor: UInt8, patch: UInt8

    init(_ major: UInt8, _ minor: UInt8, _ patch: UInt8) {
        self.major = major; self.minor = minor; self.patch = patch
    }

    static func < (a: Version, b: Version) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }
}

/// Value type numbers (`crateDataTypes.h` in OpenUSD).
enum CrateType: UInt8 {
    case invalid = 0
    case bool = 1, uchar, int, uint, int64, uint64
    case half = 7, float, double
    case string = 10, token, assetPath
    case matrix2d = 13, matrix3d, matrix4d
    case quatd = 16, quatf, quath
    case vec2d = 19, vec2f, vec2h, vec2i
    case vec3d = 23, vec3f, vec3h, vec3i
    case vec4d = 27, vec4f, vec4h, vec4i
    case dictionary = 31
    case tokenListOp = 32, stringListOp, pathListOp, referenceListOp, intListOp, int64ListOp, uintListOp, uint64ListOp
    case pathVector = 40, tokenVector
    case specifier = 42, permission, variability
    case variantSelectionMap = 45, timeSamples, payload
    case doubleVector = 48, layerOffsetVector, stringVector
    case valueBlock = 51, value, unregisteredValue, unregisteredValueListOp, payloadListOp
    case timeCode = 56, pathExpression, relocates, spline, animationBlock

    /// The usda spelling of the type, as dictionary entries and attribute type names use it.
    var usdaName: String? {
        switch self {
        case .bool: "bool"
        case .uchar: "uchar"
        case .int: "int"
        case .uint: "uint"
        case .int64: "int64"
        case .uint64: "uint64"
        case .half: "half"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .token: "token"
        case .assetPath: "asset"
        case .matrix2d: "matrix2d"
        case .matrix3d: "matrix3d"
        case .matrix4d: "matrix4d"
        case .quatd: "quatd"
        case .quatf: "quatf"
        case .quath: "quath"
        case .vec2d: "double2"
        case .vec2f: "float2"
        case .vec2h: "half2"
        case .vec2i: "int2"
        case .vec3d: "double3"
        case .vec3f: "float3"
        case .vec3h: "half3"
        case .vec3i: "int3"
        case .vec4d: "double4"
        case .vec4f: "float4"
        case .vec4h: "half4"
        case .vec4i: "int4"
        case .dictionary: "dictionary"
        case .timeCode: "timecode"
        case .pathExpression: "pathExpression"
        default: nil
        }
    }

    /// Numeric element layout: scalar kind and component count, for plain-old-data values.
    var numericLayout: (scalar: CrateScalar, components: Int)? {
        switch self {
        case .bool: (.bool, 1)
        case .uchar: (.uint8, 1)
        case .int: (.int32, 1)
        case .uint: (.uint32, 1)
        case .int64: (.int64, 1)
        case .uint64: (.uint64, 1)
        case .half: (.half, 1)
        case .float: (.float, 1)
        case .double, .timeCode: (.double, 1)
        case .matrix2d: (.double, 4)
        case .matrix3d: (.double, 9)
        case .matrix4d: (.double, 16)
        case .quatd: (.double, 4)
        case .quatf: (.float, 4)
        case .quath: (.half, 4)
        case .vec2d: (.double, 2)
        case .vec2f: (.float, 2)
        case .vec2h: (.half, 2)
        case .vec2i: (.int32, 2)
        case .vec3d: (.double, 3)
        case .vec3f: (.float, 3)
        case .vec3h: (.half, 3)
        case .vec3i: (.int32, 3)
        case .vec4d: (.double, 4)
        case .vec4f: (.float, 4)
        case .vec4h: (.half, 4)
        case .vec4i: (.int32, 4)
        default: nil
        }
    }

    var isQuaternion: Bool { self == .quatd || self == .quatf || self == .quath }
    var isMatrix: Bool { self == .matrix2d || self == .matrix3d || self == .matrix4d }
}

enum CrateScalar {
    case bool, uint8, int32, uint32, int64, uint64, half, float, double

    var size: Int {
        switch self {
        case .bool, .uint8: 1
        case .half: 2
        case .int32, .uint32, .float: 4
        case .int64, .uint64, .double: 8
        }
    }
}

/// A value's 64-bit representation: type, flags, and 48 bits that are either the value itself
/// (small values are inlined) or the file offset where it is stored.
struct ValueRep: Hashable {
    var bits: UInt64

    static let arrayBit: UInt64 = 1 << 63
    static let inlinedBit: UInt64 = 1 << 62
    static let compressedBit: UInt64 = 1 << 61
    static let arrayEditBit: UInt64 = 1 << 60
    static let payloadMask: UInt64 = (1 << 48) - 1

    init(bits: UInt64) { self.bits = bits }

    init(type: CrateType, inlined: Bool = false, array: Bool = false, compressed: Bool = false, payload: UInt64) {
        bits = (array ? Self.arrayBit : 0) | (inlined ? Self.inlinedBit : 0) | (compressed ? Self.compressedBit : 0)
            | UInt64(type.rawValue) << 48 | (payload & Self.payloadMask)
    }

    var isArray: Bool { bits & Self.arrayBit != 0 }
    var isInlined: Bool { bits & Self.inlinedBit != 0 }
    var isCompressed: Bool { bits & Self.compressedBit != 0 }
    var isArrayEdit: Bool { bits & Self.arrayEditBit != 0 }
    var typeNumber: UInt8 { UInt8(truncatingIfNeeded: bits >> 48) }
    var type: CrateType? { CrateType(rawValue: typeNumber) }
    var payload: UInt64 { bits & Self.payloadMask }
    var inlineBits: UInt32 { UInt32(truncatingIfNeeded: bits) }
}

/// `SdfSpecType` numbers.
enum CrateSpecType: UInt32 {
    case attribute = 1, connection, expression, mapper, mapperArg, prim, pseudoRoot, relationship
    case relationshipTarget, variant, variantSet
}

/// `SdfSpecifier` numbers.
enum CrateSpecifier: UInt32 {
    case def = 0, over, `class`
}
