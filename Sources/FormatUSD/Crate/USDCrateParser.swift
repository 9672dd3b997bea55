import AssetCore

/// Reads a binary crate layer (`.usdc`) into the same `USDLayer` document the usda parser builds,
/// so composition and scene building are shared. Specs are flat in the file (a path and its
/// fields each); here they are nested back into prims, variants and properties.
package enum USDCrateParser {
    /// Fields that shape the document rather than being metadata.
    static let structuralFields: Set<String> = [
        "primChildren", "properties", "variantSetNames", "variantSetChildren", "variantChildren",
        "targetChildren", "connectionChildren", "subLayerOffsets", "custom",
        // Reorder statements: the usda parser reads and drops them too.
        "primOrder", "propertyOrder",
    ]

    /// `prefetch: false` decodes every array in file order on one thread, as the tests compare.
    package static func parse(_ data: [UInt8], location: AssetLocation, name: String? = nil, budget: ReadBudget = ReadBudget(ReadLimits()),
                              prefetch: Bool = true) throws(AssetError) -> USDLayer {
        let result = data.withUnsafeBytes { (raw) -> Result<USDLayer, AssetError> in
            do throws(AssetError) {
                var file = CrateByteReader(bytes: raw, file: name ?? location.description)
                let structure = try CrateStructure.read(&file, budget: budget)
                var builder = CrateLayerBuilder(structure: structure,
                                                values: CrateValueReader(file: file, structure: structure, budget: budget),
                                                limits: budget.limits)
                return .success(try builder.build(location: location, name: name, prefetch: prefetch))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// What a crate field means to `CrateLayerBuilder`, by name. A role only some specs act on (a
/// `specifier` on a property) is metadata on the others, as its name would be.
enum CrateFieldRole: String {
    case specifier, typeName, primChildren, properties, references, payload, variantSelection
    case documentation, variability, timeSamples, subLayers
    case defaultValue = "default", inherits = "inheritPaths", targets = "targetPaths"
    /// Shapes the document (children lists, orders) rather than being metadata.
    case structural = " structural"
    case metadata = " metadata"

    init(name: String) {
        switch name {
        case "specializes": self = .inherits
        case "connectionPaths": self = .targets
        // The two roles below are not names, whatever a file's tokens say.
        case CrateFieldRole.structural.rawValue, CrateFieldRole.metadata.rawValue: self = .metadata
        default:
            self = Self(rawValue: name) ?? (USDCrateParser.structuralFields.contains(name) ? .structural : .metadata)
        }
    }

    /// Never metadata: `primChildren` and `properties` are in USDCrateParser.structuralFields too.
    var isStructural: Bool { self == .structural || self == .primChildren || self == .properties }
}

/// Nests a crate file's flat specs into a `USDLayer`.
struct CrateLayerBuilder {
    let structure: CrateStructure
    var values: CrateValueReader
    let limits: ReadLimits
    /// Each FIELDS entry's role, from its name: classified once per file rather than matched
    /// against every name case for every spec that has the field.
    private let roles: [CrateFieldRole]
    /// Spec index by path index, -1 for none; arrays, since path indices are dense.
    private var specAtPath: [Int32]
    /// Paths that have specs, by parent path.
    private var childrenOf: [[Int]]

    init(structure: CrateStructure, values: CrateValueReader, limits: ReadLimits) {
        self.structure = structure
        self.values = values
        self.limits = limits
        roles = structure.fieldNames.map { CrateFieldRole(name: structure.tokens[$0]) }
        specAtPath = Array(repeating: -1, count: structure.paths.count)
        childrenOf = Array(repeating: [], count: structure.paths.count)
        for (i, spec) in structure.specs.enumerated() {
            guard specAtPath[spec.path] < 0 else { continue }  // a repeated path: the first spec wins
            specAtPath[spec.path] = Int32(i)
            let parent = Int(structure.paths[spec.path].parent)
            if parent >= 0 { childrenOf[parent].append(spec.path) }
        }
    }

    func malformed(_ why: String, path: Int) -> AssetError {
        AssetError(.malformed("usdc: \(why)"), at: SourceLocation(file: values.file.file, elementPath: structure.pathString(path)))
    }

    /// The fields (indices into FIELDS) of the spec at `path`. Callers loop over them in place:
    /// a closure that mutated the builder would make Swift copy it for every spec.
    func fields(atPath path: Int) -> ArraySlice<Int32> {
        guard let specIndex = spec(atPath: path) else { return [] }
        return structure.fields(of: structure.specs[specIndex])
    }

    func name(ofField index: Int) -> String { structure.tokens[structure.fieldNames[index]] }

    func specType(atPath path: Int) -> CrateSpecType? {
        spec(atPath: path).map { structure.specs[$0].type }
    }

    func spec(atPath path: Int) -> Int? {
        specAtPath[path] >= 0 ? Int(specAtPath[path]) : nil
    }

    mutating func build(location: AssetLocation, name layerName: String? = nil, prefetch: Bool = true) throws(AssetError) -> USDLayer {
        var layer = USDLayer(location: location, name: layerName)
        if prefetch { prefetchArrays() }
        guard let root = structure.paths.firstIndex(where: { $0.kind == .root }) else {
            throw AssetError(.malformed("usdc: the file has no root path"), at: SourceLocation(file: values.file.file, elementPath: "PATHS"))
        }
        var order: [String] = []
        for field in fields(atPath: root) {
            let (index, rep) = (Int(field), structure.fieldValues[Int(field)])
            switch roles[index] {
            case .primChildren: order = try values.tokenVector(rep)
            case .subLayers: layer.subLayers = try values.value(rep).strings ?? []
            case .documentation: layer.metadata["doc"] = try values.value(rep)
            default:
                if !roles[index].isStructural { layer.metadata[name(ofField: index)] = try values.value(rep) }
            }
        }
        for child in ordered(children(of: root, kind: .prim, spec: .prim), by: order) {
            layer.rootPrims.append(try prim(at: child, depth: 1))
        }
        return layer
    }

    /// Every field value of every spec the build may read, for `prefetchLargeArrays`.
    private mutating func prefetchArrays() {
        // In spec order, each path's first spec only (the one the build reads); only array values
        // can be candidates, so nothing else is gathered.
        var reps: [ValueRep] = []
        for (i, spec) in structure.specs.enumerated() where specAtPath[spec.path] == Int32(i) {
            for field in structure.fields(of: spec) where structure.fieldValues[Int(field)].isArray {
                reps.append(structure.fieldValues[Int(field)])
            }
        }
        values.prefetchLargeArrays(reps)
    }

    func children(of path: Int, kind: CratePathNode.Kind, spec: CrateSpecType...) -> [Int] {
        childrenOf[path].filter { structure.paths[$0].kind == kind && spec.contains(specType(atPath: $0) ?? .expression) }
    }

    /// Paths in the order a children list names them; any it leaves out follow in file order.
    func ordered(_ paths: [Int], by names: [String]) -> [Int] {
        guard !names.isEmpty else { return paths }
        // Writers store children in their listed order, so this is usually the answer already.
        if paths.count == names.count, zip(paths, names).allSatisfy({ structure.paths[$0.0].name == $0.1 }) { return paths }
        var position: [String: Int] = [:]
        for (i, name) in names.enumerated() where position[name] == nil { position[name] = i }
        // Each path's rank is looked up once, not once per comparison.
        let ranked = paths.enumerated().map { (rank: position[structure.paths[$0.element].name] ?? Int.max, offset: $0.offset, path: $0.element) }
        return ranked.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.offset < $1.offset }.map(\.path)
    }

    mutating func prim(at path: Int, depth: Int) throws(AssetError) -> USDPrimSpec {
        guard depth <= limits.maxNodeDepth else {
            throw AssetError(.limitExceeded("prims nested deeper than \(limits.maxNodeDepth) levels"),
                             at: SourceLocation(file: values.file.file, elementPath: structure.pathString(path)))
        }
        let name = structure.paths[path].name
        // The same rule the text parser applies: a crate file's tokens could name a prim `a/b`,
        // `..` or nothing, which would mean other paths (or none) once the layer is composed.
        guard USDAParser.isValidPrimName(name) else {
            throw malformed("'\(name)' is not a valid prim name", path: path)
        }
        var prim = USDPrimSpec(specifier: .over, typeName: "", name: name, line: 0)
        try fillBody(&prim, at: path, depth: depth)
        return prim
    }

    /// A prim's or a variant's fields, properties, child prims and variant sets.
    mutating func fillBody(_ prim: inout USDPrimSpec, at path: Int, depth: Int) throws(AssetError) {
        var childOrder: [String] = [], propertyOrder: [String] = []
        for field in fields(atPath: path) {
            let (index, rep) = (Int(field), structure.fieldValues[Int(field)])
            switch roles[index] {
            case .specifier:
                switch CrateSpecifier(rawValue: rep.inlineBits) {
                case .def: prim.specifier = .def
                case .class: prim.specifier = .class
                default: prim.specifier = .over
                }
            case .typeName: prim.typeName = try values.value(rep).stringValue ?? ""
            case .primChildren: childOrder = try values.tokenVector(rep)
            case .properties: propertyOrder = try values.tokenVector(rep)
            case .references: prim.references = try values.references(rep)
            case .payload: prim.payloads = try values.references(rep)
            case .inherits: prim.inherits += try values.pathListOp(rep)
            case .variantSelection: prim.variantSelections = try values.variantSelections(rep)
            case .documentation: prim.metadata["doc"] = try values.value(rep)
            default:
                if !roles[index].isStructural { prim.metadata[name(ofField: index)] = try values.value(rep) }
            }
        }
        for child in ordered(children(of: path, kind: .property, spec: .attribute, .relationship), by: propertyOrder) {
            prim.properties.append(try property(at: child))
        }
        for child in ordered(children(of: path, kind: .prim, spec: .prim), by: childOrder) {
            prim.children.append(try self.prim(at: child, depth: depth + 1))
        }
        for variantPath in children(of: path, kind: .variantSelection, spec: .variant) {
            let node = structure.paths[variantPath]
            var body = USDPrimSpec(specifier: .over, typeName: "", name: prim.name, line: 0)
            try fillBody(&body, at: variantPath, depth: depth + 1)
            prim.variantSets[node.name, default: [:]][node.variant] = body
        }
    }

    mutating func property(at path: Int) throws(AssetError) -> USDPropertySpec {
        let isRelationship = specType(atPath: path) == .relationship
        var property = USDPropertySpec(name: structure.paths[path].name, typeName: isRelationship ? "rel" : "",
                                       isRelationship: isRelationship, isUniform: isRelationship, line: 0)
        for field in fields(atPath: path) {
            let (index, rep) = (Int(field), structure.fieldValues[Int(field)])
            switch roles[index] {
            case .typeName: if !isRelationship { property.typeName = try values.value(rep).stringValue ?? "" }
            case .variability: property.isUniform = isRelationship || rep.inlineBits != 0
            case .defaultValue: property.defaultValue = try values.value(rep)
            case .timeSamples: property.timeSamples = try values.timeSamples(rep)
            case .targets: property.targets = try values.targets(rep)
            case .documentation: property.metadata["doc"] = try values.value(rep)
            default:
                if !roles[index].isStructural { property.metadata[name(ofField: index)] = try values.value(rep) }
            }
        }
        if !isRelationship, property.typeName.isEmpty {
            throw malformed("attribute has no typeName", path: path)
        }
        return property
    }
}
