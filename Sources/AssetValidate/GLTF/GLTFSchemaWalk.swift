import Foundation

/// Checks a glTF document against `GLTFSchema` and the extension schemas, finding by finding under
/// the Khronos codes: wrong types, missing and unexpected properties, values out of range or not
/// in their list, indices that name nothing, and extensions used without being declared.
struct GLTFSchemaWalk {
    let root: JSONValue
    private(set) var findings: GLTFFindings
    let used: Set<String>
    private let objects = GLTFSchema.objects.merging(GLTFExtensionSchemas.objects) { core, _ in core }
    private let places = GLTFExtensionSchemas.places

    init(root: JSONValue, findings: GLTFFindings) {
        self.root = root
        self.findings = findings
        used = Set((root["extensionsUsed"]?.elements ?? []).compactMap(\.string))
    }

    mutating func run() -> GLTFFindings {
        guard root.members != nil else {
            findings.add("TYPE_MISMATCH", "the document is \(root.typeName), not an object", at: "")
            return findings
        }
        object(root, GLTFSchema.root, pointer: "", container: root, kind: "glTF")
        return findings
    }

    /// How many objects an index of this collection may name, nil when the collection is absent.
    private func count(of collection: String, local: Bool, container: JSONValue) -> Int {
        if local { return container[collection]?.elements?.count ?? 0 }
        if let dot = collection.firstIndex(of: ".") {
            // A collection inside a root extension (`KHR_lights_punctual.lights`).
            let name = String(collection[..<dot]), member = String(collection[collection.index(after: dot)...])
            return root["extensions"]?[name]?[member]?.elements?.count ?? 0
        }
        return root[collection]?.elements?.count ?? 0
    }

    private mutating func object(_ value: JSONValue, _ schema: GLTFObjectSchema, pointer: String, container: JSONValue, kind: String) {
        guard let members = value.members else {
            findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an object", at: pointer)
            return
        }
        let keys = Set(members.map(\.key))
        for name in schema.required where !keys.contains(name) {
            findings.add("UNDEFINED_PROPERTY", "'\(name)' must be defined", at: pointer)
        }
        for (dependent, needed) in schema.dependencies where keys.contains(dependent) && !keys.contains(needed) {
            findings.add("UNSATISFIED_DEPENDENCY", "'\(dependent)' needs '\(needed)' to be defined", at: JSONPointer.join(pointer, dependent))
        }
        if !schema.oneOf.isEmpty && schema.oneOf.count(where: { keys.contains($0) }) != 1 {
            findings.add("ONE_OF_MISMATCH", "exactly one of \(schema.oneOf.map { "'\($0)'" }.joined(separator: ", ")) must be defined", at: pointer)
        }
        for (key, member) in members {
            let here = JSONPointer.join(pointer, key)
            if key == "extensions" {
                extensions(member, on: kind, pointer: here, container: container)
            } else if key == "extras" {
                if member.members == nil { findings.add("NON_OBJECT_EXTRAS", "extras are \(member.typeName), not an object", at: here) }
            } else if let shape = schema.shape(of: key) {
                // Animation channels index the samplers of their own animation.
                check(member, shape, pointer: here, container: kind == "animation" ? value : container)
            } else {
                findings.add("UNEXPECTED_PROPERTY", "'\(key)' is not a property of \(kind)", at: here)
            }
        }
    }

    private mutating func check(_ value: JSONValue, _ shape: GLTFShape, pointer: String, container: JSONValue) {
        switch shape {
        case .object(let name):
            guard let schema = objects[name] else { return }
            object(value, schema, pointer: pointer, container: container, kind: name)
        case .integer(let min, let max, let multipleOf):
            // 1.0 and 1e0 are integers to the validator, as to any JSON reader that keeps numbers as doubles.
            guard case .number(let n, _) = value, let int = value.integer else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an integer", at: pointer)
                return
            }
            if let min, int < min { findings.add("VALUE_NOT_IN_RANGE", "\(Self.format(n)) is below the minimum \(min)", at: pointer) }
            if let max, int > max { findings.add("VALUE_NOT_IN_RANGE", "\(Self.format(n)) is above the maximum \(max)", at: pointer) }
            if let multipleOf, int % multipleOf != 0 { findings.add("VALUE_MULTIPLE_OF", "\(int) is not a multiple of \(multipleOf)", at: pointer) }
        case .number(let min, let max, let exclusiveMin):
            guard let n = value.number else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a number", at: pointer)
                return
            }
            // 1e309 parses to infinity, which no glTF number may be.
            guard n.isFinite else {
                findings.add("VALUE_NOT_IN_RANGE", "\(Self.format(n)) is not a finite number", at: pointer)
                return
            }
            if let min, exclusiveMin ? n <= min : n < min {
                findings.add("VALUE_NOT_IN_RANGE", "\(Self.format(n)) is \(exclusiveMin ? "not above" : "below") \(Self.format(min))", at: pointer)
            }
            if let max, n > max { findings.add("VALUE_NOT_IN_RANGE", "\(Self.format(n)) is above \(Self.format(max))", at: pointer) }
        case .string:
            if value.string == nil { findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer) }
        case .uri:
            guard let text = value.string else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer)
                return
            }
            uri(text, pointer: pointer)
        case .jsonPointer:
            guard let text = value.string else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer)
                return
            }
            // RFC 6901: empty, or "/" segments in which "~" is only "~0" or "~1".
            if text.wholeMatch(of: /(?:\/(?:[^\/~]|~0|~1)*)*/) == nil {
                findings.add("PATTERN_MISMATCH", "'\(text)' is not a JSON pointer (^(?:/(?:[^/~]|~0|~1)*)*$)", at: pointer)
            }
        case .version:
            guard let text = value.string else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer)
                return
            }
            if text.wholeMatch(of: /[0-9]+\.[0-9]+/) == nil {
                findings.add("PATTERN_MISMATCH", "'\(text)' is not MAJOR.MINOR (^[0-9]+\\.[0-9]+$)", at: pointer)
            }
        case .mimeType:
            guard let text = value.string else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer)
                return
            }
            if let needed = Self.enabledBy[text] {
                if !used.contains(needed) {
                    // Without its extension the type is outside the core list too, as the validator says.
                    findings.add("IMAGE_NON_ENABLED_MIME_TYPE", "'\(text)' needs \(needed) in extensionsUsed", at: pointer)
                    findings.add("VALUE_NOT_IN_LIST", "'\(text)' is not one of image/jpeg, image/png", at: pointer)
                }
            } else if text != "image/png" && text != "image/jpeg" {
                findings.add("VALUE_NOT_IN_LIST", "'\(text)' is not one of image/jpeg, image/png", at: pointer)
            }
        case .boolean:
            if value.bool == nil { findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a boolean", at: pointer) }
        case .integerEnum(let allowed):
            guard case .number = value, let int = value.integer else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an integer", at: pointer)
                return
            }
            if !allowed.contains(int) {
                findings.add("VALUE_NOT_IN_LIST", "\(int) is not one of \(allowed.map(String.init).joined(separator: ", "))", at: pointer)
            }
        case .stringEnum(let allowed):
            guard let text = value.string else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not a string", at: pointer)
                return
            }
            if text == "pointer" && used.contains("KHR_animation_pointer") && allowed.contains("translation") {
                // KHR_animation_pointer's channels target 'pointer'.
            } else if !allowed.contains(text) {
                findings.add("VALUE_NOT_IN_LIST", "'\(text)' is not one of \(allowed.joined(separator: ", "))", at: pointer)
            }
        case .index(let collection, let local):
            index(value, collection: collection, local: local, pointer: pointer, container: container, inArray: false)
        case .array(let element, let minItems, let lengths, let unique):
            guard let elements = value.elements else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an array", at: pointer)
                return
            }
            if elements.isEmpty && minItems > 0 {
                findings.add("EMPTY_ENTITY", "the array must not be empty", at: pointer)
                return
            }
            if let lengths, !lengths.contains(elements.count) {
                findings.add("ARRAY_LENGTH_NOT_IN_LIST", "\(elements.count) elements; it takes \(lengths.map(String.init).joined(separator: ", "))", at: pointer)
            }
            for (k, item) in elements.enumerated() {
                let here = JSONPointer.join(pointer, k)
                switch element {
                case .index(let collection, let local):
                    index(item, collection: collection, local: local, pointer: here, container: container, inArray: true)
                case .number where item.number == nil, .string where item.string == nil:
                    findings.add("ARRAY_TYPE_MISMATCH", "\(Self.shown(item)) is not a \(Self.name(element))", at: here)
                case .object where item.members == nil && pointer.dropFirst().contains("/"):
                    // An element that is not an object, in an array of objects inside an object (a
                    // mesh's primitives, a primitive's targets): the array is at fault, as the
                    // validator points it out. In the document's own arrays the element is.
                    findings.add("ARRAY_TYPE_MISMATCH", "element \(k), \(Self.shown(item)), is not an object", at: pointer)
                default:
                    check(item, element, pointer: here, container: container)
                }
            }
            if unique {
                var seen: Set<String> = []
                for (k, item) in elements.enumerated() where !seen.insert(Self.key(item)).inserted {
                    findings.add("DUPLICATE_ELEMENTS", "\(Self.shown(item)) appears more than once", at: JSONPointer.join(pointer, k))
                }
            }
        case .map(let member):
            guard let members = value.members else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an object", at: pointer)
                return
            }
            if members.isEmpty { findings.add("EMPTY_ENTITY", "the object must not be empty", at: pointer) }
            for (key, item) in members { check(item, member, pointer: JSONPointer.join(pointer, key), container: container) }
        case .anything:
            break
        }
    }

    private mutating func index(_ value: JSONValue, collection: String, local: Bool, pointer: String, container: JSONValue, inArray: Bool) {
        guard case .number = value, let int = value.integer else {
            findings.add(inArray ? "ARRAY_TYPE_MISMATCH" : "TYPE_MISMATCH", "\(Self.shown(value)) is not an integer", at: pointer)
            return
        }
        guard int >= 0 else {
            findings.add("INVALID_INDEX", "\(int) is negative", at: pointer)
            return
        }
        // Named once where the extension object is (see `extensions`).
        if !local, let dot = collection.firstIndex(of: "."), root["extensions"]?[String(collection[..<dot])] == nil { return }
        let available = count(of: collection, local: local, container: container)
        if int >= available {
            findings.add("UNRESOLVED_REFERENCE", "\(collection) \(int) does not exist (\(available) defined)", at: pointer)
        }
    }

    private mutating func uri(_ text: String, pointer: String) {
        switch GLTFURIForm(text) {
        case .invalid(let why): findings.add("INVALID_URI", "'\(text.prefix(40))' is not a valid URI: \(why)", at: pointer)
        case .nonRelative: findings.add("NON_RELATIVE_URI", "'\(text.prefix(80))' is not a relative path", at: pointer)
        case .data, .relative: break
        }
    }

    private mutating func extensions(_ value: JSONValue, on kind: String, pointer: String, container: JSONValue) {
        guard let members = value.members else {
            findings.add("TYPE_MISMATCH", "\(Self.shown(value)) is not an object", at: pointer)
            return
        }
        for (name, body) in members {
            let here = JSONPointer.join(pointer, name)
            if name.wholeMatch(of: /[A-Z0-9]+_[A-Za-z0-9_]+/) == nil {
                findings.add("INVALID_EXTENSION_NAME_FORMAT", "'\(name)' is not PREFIX_name", at: here)
            }
            if !used.contains(name) { findings.add("UNDECLARED_EXTENSION", "'\(name)' is not listed in extensionsUsed", at: here) }
            // Every extension's content is an object, known or not.
            guard body.members != nil else {
                findings.add("TYPE_MISMATCH", "\(Self.shown(body)) is not an object", at: here)
                continue
            }
            // One not in extensionsUsed is reported above; one listed there is reported there.
            guard let places = places[name] else { continue }
            // An extension with a root part (lights, variants) means nothing on an object without it.
            if kind != "glTF", places["glTF"] != nil, root["extensions"]?[name] == nil {
                findings.add("UNSATISFIED_DEPENDENCY", "'/extensions/\(name)' must be defined", at: here)
            }
            guard let schema = places[kind] else {
                findings.add("UNEXPECTED_EXTENSION_OBJECT", "'\(name)' does not apply to \(kind)", at: here)
                continue
            }
            object(body, schema, pointer: here, container: container, kind: "\(name) on \(kind)")
        }
    }

    /// Image types an extension enables, beyond the core's PNG and JPEG.
    static let enabledBy = ["image/webp": "EXT_texture_webp", "image/ktx2": "KHR_texture_basisu"]

    /// A value as a message quotes it, cut short.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "'\(s.prefix(40))'"
        case .number(let n, _): return format(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func format(_ n: Double) -> String {
        n.rounded() == n && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }

    private static func name(_ shape: GLTFShape) -> String {
        switch shape {
        case .number: return "number"
        case .string: return "string"
        default: return "value of the right type"
        }
    }

    /// Identity for DUPLICATE_ELEMENTS: equal numbers or strings are duplicates.
    private static func key(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "s" + s
        case .number(let n, _): return "n" + String(n)
        default: return "o" + shown(value)
        }
    }
}
