import AssetCore

/// One object of the `Objects` section: a model, geometry, material, texture, deformer, curve...
/// 7.x files give each a numeric id; 6.1 files name them (`Model::Cube`), and the name is the id.
struct FBXObject: Sendable {
    var id: String
    /// The record name: `Model`, `Geometry`, `Material`, `Deformer`, `AnimationCurve`...
    var kind: String
    /// The name without its class prefix (`Cube` from `Model::Cube`).
    var name: String
    /// `Mesh`, `LimbNode`, `Null`, `Skin`, `Cluster`, `BlendShapeChannel`, `Shape`...
    var subclass: String
    var node: FBXNode
    /// Properties70 (or Properties60) values by name, over the Definitions template's defaults.
    var properties: [String: [FBXValue]]

    func number(_ name: String) -> Double? { properties[name]?.first?.double }
    /// A whole-number property (an enum, a flag); nil when missing, fractional or out of range,
    /// so a hostile value can never trap a conversion.
    func integer(_ name: String) -> Int? { properties[name]?.first?.int }
    func vector(_ name: String) -> SIMD3<Double>? {
        guard let v = properties[name], v.count >= 3, let x = v[0].double, let y = v[1].double, let z = v[2].double else { return nil }
        return SIMD3(x, y, z)
    }
    func text(_ name: String) -> String? { properties[name]?.first?.string }
}

/// A connection: `OO` object to object, or `OP` object to one of the parent's properties.
struct FBXLink: Sendable {
    var child: String
    var parent: String
    var property: String?
}

/// The object graph of an FBX document: its objects by id and its connections both ways, with the
/// Definitions section's property templates applied as defaults.
struct FBXObjects: Sendable {
    var objects: [String: FBXObject] = [:]
    /// Object ids in file order, so everything built from them comes out in a stable order.
    var order: [String] = []
    var childrenOf: [String: [FBXLink]] = [:]
    var parentsOf: [String: [FBXLink]] = [:]
    var globals: [String: [FBXValue]] = [:]
    /// 6.1 files keep the scene's root as `Model::Scene`; 7.x use id 0.
    static let rootIDs: Set<String> = ["0", "Model::Scene"]

    init(_ document: FBXDocument) {
        let templates = Self.templates(document.root.child("Definitions"))
        globals = Self.properties(document.root.child("GlobalSettings"))
        for record in document.root.child("Objects")?.children ?? [] {
            guard let object = Self.object(record, templates: templates, version: document.version) else { continue }
            if objects[object.id] == nil { order.append(object.id) }
            objects[object.id] = object
        }
        // 6.1 keeps each model's geometry inside the model record: the model is its own geometry.
        for record in document.root.child("Connections")?.children ?? [] where record.name == "C" || record.name == "Connect" {
            guard record.values.count >= 3, let kind = record.values[0].string else { continue }
            let child = Self.id(record.values[1]), parent = Self.id(record.values[2])
            let link = FBXLink(child: child, parent: parent, property: kind == "OP" ? record.values.count > 3 ? record.values[3].string : nil : nil)
            childrenOf[parent, default: []].append(link)
            parentsOf[child, default: []].append(link)
        }
    }

    static func id(_ value: FBXValue) -> String {
        switch value {
        case .integer(let v): return String(v)
        case .number(let v): return String(Int64(exactly: v) ?? 0)
        case .string(let s): return s
        default: return ""
        }
    }

    /// The objects connected under `id` (object-to-object), optionally of one kind, in file order.
    func children(of id: String, kind: String? = nil) -> [FBXObject] {
        (childrenOf[id] ?? []).filter { $0.property == nil }.compactMap { objects[$0.child] }.filter { kind == nil || $0.kind == kind }
    }

    /// The objects connected to a property of `id` (`DiffuseColor`, `d|X`...), with the property.
    func propertyChildren(of id: String) -> [(object: FBXObject, property: String)] {
        (childrenOf[id] ?? []).compactMap { link in link.property.flatMap { p in objects[link.child].map { ($0, p) } } }
    }

    func parents(of id: String, kind: String? = nil) -> [FBXObject] {
        (parentsOf[id] ?? []).compactMap { objects[$0.parent] }.filter { kind == nil || $0.kind == kind }
    }

    private static func object(_ record: FBXNode, templates: [String: [String: [FBXValue]]], version: Int) -> FBXObject? {
        let values = record.values
        let id: String, fullName: String, subclass: String
        if values.count >= 3, case .integer = values[0] {
            (id, fullName, subclass) = (Self.id(values[0]), values[1].string ?? "", values[2].string ?? "")
        } else if values.count >= 2, let name = values[0].string {
            (id, fullName, subclass) = (name, name, values[1].string ?? "")  // 6.1: the name is the id
        } else if values.count == 1, let name = values[0].string {
            (id, fullName, subclass) = (name, name, "")
        } else {
            return nil
        }
        let name = fullName.range(of: "::").map { String(fullName[$0.upperBound...]) } ?? fullName
        var properties = templates[record.name] ?? [:]
        properties.merge(Self.properties(record)) { $1 }
        return FBXObject(id: id, kind: record.name, name: name, subclass: subclass, node: record, properties: properties)
    }

    /// A record's Properties70 `P: name, type, label, flags, values...` or Properties60
    /// `Property: name, type, flags, values...`.
    static func properties(_ record: FBXNode?) -> [String: [FBXValue]] {
        var out: [String: [FBXValue]] = [:]
        guard let record else { return out }
        for p in record.child("Properties70")?.children ?? [] where p.values.count >= 4 {
            if let name = p.values[0].string { out[name] = Array(p.values.dropFirst(4)) }
        }
        for p in record.child("Properties60")?.children ?? [] where p.values.count >= 3 {
            if let name = p.values[0].string { out[name] = Array(p.values.dropFirst(3)) }
        }
        return out
    }

    /// Definitions: `ObjectType: "Model" { PropertyTemplate: "FbxNode" { Properties70 } }`.
    private static func templates(_ definitions: FBXNode?) -> [String: [String: [FBXValue]]] {
        var out: [String: [String: [FBXValue]]] = [:]
        for type in definitions?.children("ObjectType") ?? [] {
            guard let kind = type.values.first?.string else { continue }
            for template in type.children("PropertyTemplate") { out[kind, default: [:]].merge(properties(template)) { $1 } }
        }
        return out
    }

    func global(_ name: String) -> Double? { globals[name]?.first?.double }
}
