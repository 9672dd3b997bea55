import AssetCore

/// Writes a `USDLayer` as a binary crate file (`.usdc`, version 0.8.0, or 0.9/0.10 when the
/// layer holds timecode or path expression values), the encoding ARKit wants as a usdz's root
/// layer. Metadata keys the Sdf schema types are written with that type; other keys cannot be
/// typed faithfully and are left out with a warning.
public enum USDCrateWriter {
    public struct Output: Sendable {
        public var bytes: [UInt8]
        public var warnings: [String]
    }

    /// Types of the metadata fields assetc knows, by where they appear.
    static let layerFields: [String: String] = [
        "defaultPrim": "token", "upAxis": "token", "metersPerUnit": "double", "kilogramsPerUnit": "double",
        "startTimeCode": "double", "endTimeCode": "double", "timeCodesPerSecond": "double", "framesPerSecond": "double",
        "customLayerData": "dictionary", "doc": "string", "comment": "string", "owner": "string",
    ]
    static let primFields: [String: String] = [
        "kind": "token", "active": "bool", "instanceable": "bool", "hidden": "bool", "customData": "dictionary",
        "assetInfo": "dictionary", "doc": "string", "comment": "string", "displayName": "string", "displayGroup": "string",
        "apiSchemas": "tokenListOp",
    ]
    static let propertyFields: [String: String] = [
        "interpolation": "token", "elementSize": "int", "customData": "dictionary", "doc": "string", "comment": "string",
        "displayName": "string", "displayGroup": "string", "colorSpace": "token", "bindMaterialAs": "token",
        "connectability": "token", "renderType": "token", "hidden": "bool", "outputName": "token",
        // UsdSkel registers an in-between shape's weight as a float field.
        "weight": "float",
    ]

    /// Keys the usda parser records for bare strings and `doc =`, and their Sdf field names.
    static func fieldName(_ key: String) -> String { key == "doc" ? "documentation" : key }

    public static func encode(_ layer: USDLayer) throws(AssetError) -> Output {
        var encoder = CrateLayerEncoder()
        try encoder.encode(layer)
        return Output(bytes: encoder.file.finish(), warnings: encoder.warnings)
    }
}

struct CrateLayerEncoder {
    var file = CrateFileBuilder()
    var warnings: [String] = []

    mutating func encode(_ layer: USDLayer) throws(AssetError) {
        var fields: [(String, ValueRep)] = []
        try metadata(layer.metadata, known: USDCrateWriter.layerFields, at: "/", into: &fields)
        if !layer.subLayers.isEmpty {
            fields.append(("subLayers", stringVector(layer.subLayers)))
            // Sdf expects one offset per sublayer; assetc keeps none, so each is the identity.
            file.align(8)
            let offsets = file.position
            file.u64(UInt64(layer.subLayers.count))
            for _ in layer.subLayers { file.f64(0); file.f64(1) }
            fields.append(("subLayerOffsets", ValueRep(type: .layerOffsetVector, payload: offsets)))
        }
        if !layer.rootPrims.isEmpty { fields.append(("primChildren", tokenVector(layer.rootPrims.map(\.name)))) }
        file.addSpec(path: 0, type: .pseudoRoot, fields: fields)
        for prim in layer.rootPrims { try encode(prim, path: "/" + prim.name) }
    }

    mutating func encode(_ prim: USDPrimSpec, path: String, isVariant: Bool = false) throws(AssetError) {
        var fields: [(String, ValueRep)] = []
        let specifier: CrateSpecifier = switch prim.specifier { case .def: .def; case .over: .over; case .class: .class }
        fields.append(("specifier", ValueRep(type: .specifier, inlined: true, payload: UInt64(specifier.rawValue))))
        if !prim.typeName.isEmpty { fields.append(("typeName", ValueRep(type: .token, inlined: true, payload: UInt64(file.token(prim.typeName))))) }
        try metadata(prim.metadata, known: USDCrateWriter.primFields, at: path, into: &fields)
        if !prim.references.isEmpty { fields.append(("references", try arcs(prim.references, anchor: path, payload: false))) }
        if !prim.payloads.isEmpty { fields.append(("payload", try arcs(prim.payloads, anchor: path, payload: true))) }
        if !prim.inherits.isEmpty { fields.append(("inheritPaths", try pathListOp(prim.inherits, anchor: path, explicit: false))) }
        if !prim.variantSelections.isEmpty { fields.append(("variantSelection", variantSelections(prim.variantSelections))) }
        let setNames = prim.variantSets.keys.sorted()
        if !setNames.isEmpty {
            fields.append(("variantSetNames", stringListOp(setNames)))
            fields.append(("variantSetChildren", tokenVector(setNames)))
        }
        if !prim.properties.isEmpty { fields.append(("properties", tokenVector(prim.properties.map(\.name)))) }
        if !prim.children.isEmpty { fields.append(("primChildren", tokenVector(prim.children.map(\.name)))) }
        file.addSpec(path: try file.path(path), type: isVariant ? .variant : .prim, fields: fields)

        for property in prim.properties { try encode(property, path: path + "." + property.name, prim: path) }
        for child in prim.children { try encode(child, path: path + "/" + child.name) }
        for setName in setNames {
            let variants = prim.variantSets[setName] ?? [:]
            let names = variants.keys.sorted()
            file.addSpec(path: try file.path(path + "{\(setName)=}"), type: .variantSet,
                         fields: [("variantChildren", tokenVector(names))])
            for name in names {
                guard var body = variants[name] else { continue }
                body.specifier = .over
                try encode(body, path: path + "{\(setName)=\(name)}", isVariant: true)
            }
        }
    }

    mutating func encode(_ property: USDPropertySpec, path: String, prim: String) throws(AssetError) {
        var fields: [(String, ValueRep)] = []
        fields.append(("custom", ValueRep(type: .bool, inlined: true, payload: 0)))
        fields.append(("variability", ValueRep(type: .variability, inlined: true, payload: property.isUniform ? 1 : 0)))
        if property.isRelationship {
            if let targets = property.targets { fields.append(("targetPaths", try pathListOp(targets, anchor: prim, explicit: true))) }
        } else {
            fields.append(("typeName", ValueRep(type: .token, inlined: true, payload: UInt64(file.token(property.typeName)))))
            if let value = property.defaultValue { fields.append(("default", try pack(value, property.typeName, at: path))) }
            if let samples = property.timeSamples { fields.append(("timeSamples", try timeSamples(samples, typeName: property.typeName, at: path))) }
            if let targets = property.targets { fields.append(("connectionPaths", try pathListOp(targets, anchor: prim, explicit: true))) }
        }
        try metadata(property.metadata, known: USDCrateWriter.propertyFields, at: path, into: &fields)
        file.addSpec(path: try file.path(path), type: property.isRelationship ? .relationship : .attribute, fields: fields)
    }

    mutating func pack(_ value: USDValue, _ typeName: String, at path: String) throws(AssetError) -> ValueRep {
        do throws(AssetError) {
            return try file.pack(value, typeName: typeName)
        } catch {
            throw AssetError(error.kind, at: SourceLocation(elementPath: path))
        }
    }

    mutating func metadata(_ metadata: [String: USDValue], known: [String: String], at path: String,
                           into fields: inout [(String, ValueRep)]) throws(AssetError) {
        for key in metadata.keys.sorted() {
            guard let value = metadata[key] else { continue }
            guard let typeName = known[key] else {
                warnings.append("\(path): metadata '\(key)' is not written to usdc (assetc does not know its type)")
                continue
            }
            let field = USDCrateWriter.fieldName(key)
            if typeName == "tokenListOp" {
                fields.append((field, tokenListOp(value.strings ?? [])))
            } else {
                fields.append((field, try pack(value, typeName, at: path)))
            }
        }
    }

    // MARK: Structured values

    mutating func tokenVector(_ names: [String]) -> ValueRep {
        indexVector(.tokenVector, names.map { file.token($0) })
    }

    mutating func stringVector(_ items: [String]) -> ValueRep {
        indexVector(.stringVector, items.map { file.string($0) })
    }

    /// `[u64 count][u32 index]...`: the layout of token and string vectors.
    mutating func indexVector(_ type: CrateType, _ indexes: [UInt32]) -> ValueRep {
        file.align(8)
        let offset = file.position
        file.u64(UInt64(indexes.count))
        for i in indexes { file.u32(i) }
        return ValueRep(type: type, payload: offset)
    }

    /// List op header bits: 0 explicit; 1 explicit items; 5 prepended items.
    mutating func listOp(_ type: CrateType, explicit: Bool, items: [UInt32]) -> ValueRep {
        file.align(8)
        let offset = file.position
        if explicit {
            file.u8(items.isEmpty ? 1 : 1 | 1 << 1)
            if !items.isEmpty { file.u64(UInt64(items.count)); for i in items { file.u32(i) } }
        } else {
            file.u8(1 << 5)
            file.u64(UInt64(items.count)); for i in items { file.u32(i) }
        }
        return ValueRep(type: type, payload: offset)
    }

    mutating func tokenListOp(_ items: [String]) -> ValueRep {
        listOp(.tokenListOp, explicit: false, items: items.map { file.token($0) })
    }

    mutating func stringListOp(_ items: [String]) -> ValueRep {
        listOp(.stringListOp, explicit: false, items: items.map { file.string($0) })
    }

    mutating func pathListOp(_ paths: [String], anchor: String, explicit: Bool) throws(AssetError) -> ValueRep {
        var indexes: [UInt32] = []
        for p in paths { indexes.append(try file.path(try Self.absolute(p, anchor: anchor))) }
        return listOp(.pathListOp, explicit: explicit, items: indexes)
    }

    /// References or payloads as prepended items: asset, prim path, identity layer offset and
    /// (references only) empty customData.
    mutating func arcs(_ arcs: [USDReference], anchor: String, payload: Bool) throws(AssetError) -> ValueRep {
        var items: [(UInt32, UInt32)] = []
        for arc in arcs {
            let primPath = try arc.primPath.map { (p) throws(AssetError) in try Self.absolute(p, anchor: anchor) } ?? ""
            items.append((file.string(arc.assetPath), try file.path(primPath)))
        }
        file.align(8)
        let offset = file.position
        file.u8(1 << 5)
        file.u64(UInt64(items.count))
        for (asset, path) in items {
            file.u32(asset); file.u32(path)
            file.f64(0); file.f64(1)
            if !payload { file.u64(0) }
        }
        return ValueRep(type: payload ? .payloadListOp : .referenceListOp, payload: offset)
    }

    mutating func variantSelections(_ selections: [String: String]) -> ValueRep {
        let pairs = selections.keys.sorted().map { (file.string($0), file.string(selections[$0] ?? "")) }
        file.align(8)
        let offset = file.position
        file.u64(UInt64(pairs.count))
        for (set, variant) in pairs { file.u32(set); file.u32(variant) }
        return ValueRep(type: .variantSelectionMap, payload: offset)
    }

    /// `[i64 jump][times][times rep][i64 jump][values][u64 count][value reps]`, each jump leading
    /// to what follows the nested data it skips.
    mutating func timeSamples(_ samples: [(time: Double, value: USDValue)], typeName: String, at path: String) throws(AssetError) -> ValueRep {
        file.align(8)
        let offset = file.position
        var jumpAt = Int(file.position)
        file.i64(0)
        let timesOffset = file.position
        file.u64(UInt64(samples.count))
        for s in samples { file.f64(s.time) }
        file.patchI64(at: jumpAt, Int64(file.position) - Int64(jumpAt))
        file.u64(ValueRep(type: .doubleVector, payload: timesOffset).bits)
        jumpAt = Int(file.position)
        file.i64(0)
        var reps: [ValueRep] = []
        for s in samples { reps.append(try pack(s.value, typeName, at: path)) }
        file.patchI64(at: jumpAt, Int64(file.position) - Int64(jumpAt))
        file.u64(UInt64(reps.count))
        for rep in reps { file.u64(rep.bits) }
        return ValueRep(type: .timeSamples, payload: offset)
    }

    /// Relative target and reference paths (`../Looks/M`, `Surface.outputs:out`) anchored at the
    /// prim that holds them, as Sdf stores them.
    static func absolute(_ path: String, anchor: String) throws(AssetError) -> String {
        if path.hasPrefix("/") { return path }
        var base = anchor.split(separator: "/").map(String.init)
        var rest = Substring(path)
        while true {
            if rest.hasPrefix("../") { guard !base.isEmpty else { break }; base.removeLast(); rest = rest.dropFirst(3) }
            else if rest.hasPrefix("./") { rest = rest.dropFirst(2) }
            else { break }
        }
        if rest == ".." { base = Array(base.dropLast()); rest = "" }
        let prefix = "/" + base.joined(separator: "/")
        if rest.isEmpty { return prefix }
        if rest.hasPrefix(".") { return prefix + rest }
        return (prefix == "/" ? "" : prefix) + "/" + rest
    }
}
