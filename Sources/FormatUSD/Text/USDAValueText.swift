import AssetCore

/// How usda spells a `USDValue`. An attribute's declared type decides the spelling of its numbers
/// (a `float` keeps the shortest text that reads back as the same 32-bit value, a `double` the
/// shortest for 64 bits); metadata values, which carry no declared type, are spelled as they are.
enum USDAValueText {
    /// Elements per line before an array wraps: integer arrays are short numbers, the rest groups.
    static let integersPerLine = 24
    static let elementsPerLine = 8

    static func typed(_ value: USDValue, typeName: String) -> String {
        if case .none = value { return "None" }
        guard let (type, isArray) = CrateFileBuilder.crateType(forTypeName: typeName) else { return untyped(value) }
        if let (scalar, components) = type.numericLayout {
            let spell = spelling(scalar)
            if isArray {
                if case .integers(let ints) = value { return array(ints.map { String($0) }, perLine: integersPerLine) }
                guard let flat = value.flatNumbers, components > 0, flat.count % components == 0 else { return untyped(value) }
                let items = stride(from: 0, to: flat.count, by: components).map { start in
                    group(flat[start..<start + components], components: components, isMatrix: type.isMatrix, spell)
                }
                return array(items, perLine: components == 1 && scalar.isInteger ? integersPerLine : elementsPerLine)
            }
            if scalar == .bool, let b = value.boolValue { return b ? "1" : "0" }
            guard let flat = value.flatNumbers, flat.count == components else { return untyped(value) }
            return group(flat[...], components: components, isMatrix: type.isMatrix, spell)
        }
        switch type {
        case .string, .token, .pathExpression:
            guard isArray else { return value.stringValue.map(quoted) ?? untyped(value) }
            return value.strings.map { array($0.map(quoted), perLine: elementsPerLine) } ?? untyped(value)
        case .assetPath:
            guard isArray else { return value.stringValue.map(asset) ?? untyped(value) }
            return value.strings.map { array($0.map(asset), perLine: elementsPerLine) } ?? untyped(value)
        default:
            return untyped(value)
        }
    }

    /// A value spelled from its own shape: metadata, dictionary entries of unknown type.
    static func untyped(_ value: USDValue) -> String {
        switch value {
        case .none: return "None"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return NumberText.double(d)
        case .string(let s): return quoted(s)
        case .word(let w): return w
        case .asset(let a): return asset(a)
        case .path(let p): return "<\(p)>"
        case .tuple(let t): return "(" + t.map(NumberText.double).joined(separator: ", ") + ")"
        case .numbers(let flat, let components): return grouped(flat.map(NumberText.double), components: components)
        case .integers(let ints): return array(ints.map { String($0) }, perLine: integersPerLine)
        case .floats(let floats): return grouped(floats.doubles.map { NumberText.float(Float($0)) }, components: floats.components)
        case .list(let items): return array(items.map(untyped), perLine: elementsPerLine)
        case .dictionary(let entries):
            guard !entries.isEmpty else { return "{}" }
            let body = entries.map { entry -> String in
                let typeName = entry.typeName.isEmpty ? CrateFileBuilder.inferredTypeName(entry.value) : entry.typeName
                return "\(typeName) \(quoted(entry.key)) = \(typed(entry.value, typeName: typeName))"
            }
            return "{ " + body.joined(separator: "; ") + " }"
        }
    }

    /// Spelled numbers as an array, in parenthesised groups when elements have several.
    private static func grouped(_ spelled: [String], components: Int) -> String {
        guard components > 1, spelled.count % components == 0 else { return array(spelled, perLine: elementsPerLine) }
        let items = stride(from: 0, to: spelled.count, by: components).map { start in
            "(" + spelled[start..<start + components].joined(separator: ", ") + ")"
        }
        return array(items, perLine: elementsPerLine)
    }

    private static func spelling(_ scalar: CrateScalar) -> (Double) -> String {
        switch scalar {
        case .float, .half: return { NumberText.float(Float($0)) }
        case .double: return NumberText.double
        case .bool: return { $0 != 0 ? "1" : "0" }
        case .uint8, .int32, .uint32, .int64, .uint64:
            // A whole number in Int64's range prints as one; anything else a layer may hold for an
            // int attribute (1e30, 0.5, nan: found by fuzzing) keeps its own spelling.
            return { Int64(exactly: $0).map { String($0) } ?? NumberText.double($0) }
        }
    }

    /// One element: a scalar, `(x, y, z)`, or a matrix as rows `( (a, b), (c, d) )`.
    private static func group(_ numbers: ArraySlice<Double>, components: Int, isMatrix: Bool, _ spell: (Double) -> String) -> String {
        if components == 1, let only = numbers.first { return spell(only) }
        guard isMatrix else { return "(" + numbers.map(spell).joined(separator: ", ") + ")" }
        let n = Int(Double(components).squareRoot())
        let rows = stride(from: numbers.startIndex, to: numbers.endIndex, by: n).map { start in
            "(" + numbers[start..<start + n].map(spell).joined(separator: ", ") + ")"
        }
        return "( " + rows.joined(separator: ", ") + " )"
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// `@path@`, or `@@@path@@@` when the path itself holds an `@`.
    static func asset(_ path: String) -> String {
        path.contains("@") ? "@@@" + path.replacingOccurrences(of: "@@@", with: "\\@@@") + "@@@" : "@\(path)@"
    }

    /// Arrays wrap every `perLine` elements so large meshes stay readable and diffable.
    static func array(_ items: [String], perLine: Int) -> String {
        guard items.count > perLine else { return "[" + items.joined(separator: ", ") + "]" }
        var out = "["
        for start in stride(from: 0, to: items.count, by: perLine) {
            out += (start == 0 ? "" : ",") + "\n        " + items[start..<min(start + perLine, items.count)].joined(separator: ", ")
        }
        return out + "]"
    }
}

extension CrateScalar {
    var isInteger: Bool {
        switch self {
        case .uint8, .int32, .uint32, .int64, .uint64: return true
        case .bool, .half, .float, .double: return false
        }
    }
}
