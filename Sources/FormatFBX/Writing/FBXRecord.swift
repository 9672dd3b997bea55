/// One record of an FBX file being written: a name, typed values and nested records. The reader's
/// `FBXNode` keeps values as the reader needs them; a writer must choose each value's exact type
/// code (`I` or `L`, `f` or `d` arrays), because engines' readers check them.
struct FBXRecord: Sendable {
    var name: String
    var values: [FBXProperty]
    var children: [FBXRecord]
    /// Written with a nested list even when it has no children (`{ }` in ASCII): readers such as
    /// assimp require one on every object.
    var hasScope = false

    init(_ name: String, _ values: FBXProperty..., children: [FBXRecord] = []) {
        self.name = name
        self.values = values
        self.children = children
    }

    init(_ name: String, values: [FBXProperty], children: [FBXRecord] = []) {
        self.name = name
        self.values = values
        self.children = children
    }

    /// `Name\0\1Class`: how binary FBX stores an object's `Class::Name`.
    static func objectName(_ name: String, _ kind: String) -> FBXProperty {
        .string(name + "\u{0}\u{1}" + kind)
    }
}

/// A value with its binary type code.
enum FBXProperty: Sendable {
    case bool(Bool)          // C
    case int32(Int32)        // I
    case int64(Int64)        // L
    case float(Float)        // F
    case double(Double)      // D
    case string(String)      // S
    case raw([UInt8])        // R
    case int32s([Int32])     // i
    case int64s([Int64])     // l
    case floats([Float])     // f
    case doubles([Double])   // d
}

/// `Properties70`: the typed property list of an object. Each entry is `P: name, type, label, flags,
/// values...`, with the type strings the FBX SDK writes (engines look properties up by name and
/// read the values by the type).
struct FBXProperties70 {
    private(set) var entries: [FBXRecord] = []

    var record: FBXRecord { FBXRecord("Properties70", values: [], children: entries) }
    var isEmpty: Bool { entries.isEmpty }

    private mutating func add(_ name: String, _ type: String, _ label: String, _ flags: String, _ values: [FBXProperty]) {
        entries.append(FBXRecord("P", values: [.string(name), .string(type), .string(label), .string(flags)] + values))
    }

    mutating func int(_ name: String, _ value: Int) { add(name, "int", "Integer", "", [.int32(Int32(clamping: value))]) }
    mutating func bool(_ name: String, _ value: Bool) { add(name, "bool", "", "", [.int32(value ? 1 : 0)]) }
    mutating func enumeration(_ name: String, _ value: Int) { add(name, "enum", "", "", [.int32(Int32(clamping: value))]) }
    mutating func double(_ name: String, _ value: Double) { add(name, "double", "Number", "", [.double(value)]) }
    /// An animatable number (`Number`, flag `A`), as materials and curve nodes write them.
    mutating func number(_ name: String, _ value: Double, animated: Bool = false) {
        add(name, "Number", "", animated ? "A+" : "A", [.double(value)])
    }
    mutating func string(_ name: String, _ value: String) { add(name, "KString", "", "", [.string(value)]) }
    mutating func url(_ name: String, _ value: String) { add(name, "KString", "Url", "", [.string(value)]) }
    mutating func time(_ name: String, _ ticks: Int64) { add(name, "KTime", "Time", "", [.int64(ticks)]) }
    mutating func colorRGB(_ name: String, _ c: SIMD3<Double>) { add(name, "ColorRGB", "Color", "", c.properties) }
    /// A material colour (`Color`, animatable).
    mutating func color(_ name: String, _ c: SIMD3<Double>) { add(name, "Color", "", "A", c.properties) }
    mutating func vector(_ name: String, _ v: SIMD3<Double>) { add(name, "Vector3D", "Vector", "", v.properties) }
    /// `Lcl Translation`, `Lcl Rotation`, `Lcl Scaling`: their own type names, flagged animatable.
    mutating func local(_ name: String, _ v: SIMD3<Double>, animated: Bool = false) { add(name, name, "", animated ? "A+" : "A", v.properties) }
    mutating func compound(_ name: String) { add(name, "Compound", "", "", []) }
    mutating func object(_ name: String) { add(name, "object", "", "", []) }
    mutating func custom(_ name: String, type: String, label: String = "", flags: String = "", _ values: [FBXProperty]) {
        add(name, type, label, flags, values)
    }
}

extension SIMD3 where Scalar == Double {
    var properties: [FBXProperty] { [.double(x), .double(y), .double(z)] }
}
