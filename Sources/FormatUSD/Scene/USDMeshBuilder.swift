import AssetCore

/// Builds a `Mesh` from a composed UsdGeomMesh prim: topology, orientation, normals, every primvar
/// with its interpolation and indices, and materialBind GeomSubsets; or a point cloud (no faces)
/// from a UsdGeomPoints prim, its `widths` kept as a primvar. A mesh whose topology is
/// unusable is dropped with a warning; a primvar that does not fit is dropped on its own.
struct USDMeshBuilder {
    let values: USDAttributeValues

    struct Built {
        var mesh: Mesh
        /// Per subset (in `mesh.subsets` order), the composed GeomSubset prim, for its material binding.
        var subsetPrims: [USDComposedPrim]
    }

    func build(_ prim: USDComposedPrim, diagnostics: inout [Diagnostic]) -> Built? {
        var mesh = Mesh(name: prim.name)
        func drop(_ why: String) -> Built? {
            diagnostics.append(.warning("mesh dropped: \(why)", at: prim.location))
            return nil
        }
        switch values.float3s(prim.attribute("points")) {
        case .success(let points)?: mesh.points = points
        case .failure?: return drop("points is not a list of 3-vectors")
        case nil: break
        }
        for (name, keyPath) in [("faceVertexCounts", \Mesh.faceVertexCounts), ("faceVertexIndices", \Mesh.faceVertexIndices)] {
            guard let ints = values.int32s(prim.attribute(name)) else { continue }
            switch ints {
            case .success(let ints): mesh[keyPath: keyPath] = ints
            case .failure(let bad): return drop("\(name)[\(bad.index)] = \(bad.value) is not an int")
            }
        }
        if values.string(prim.attribute("orientation")) == "leftHanded" { mesh.orientation = .leftHanded }
        mesh.isDoubleSided = values.bool(prim.attribute("doubleSided")) ?? false
        if let problem = mesh.topologyProblem() { return drop(problem) }

        mesh.primvars = primvars(of: prim, diagnostics: &diagnostics)
        for (index, problem) in mesh.primvarProblems().reversed() {
            diagnostics.append(.warning("\(problem); primvar dropped", at: prim.location))
            mesh.primvars.remove(at: index)
        }

        var subsetPrims: [USDComposedPrim] = []
        for child in prim.children where child.typeName == "GeomSubset" && child.isDefined {
            let family = values.string(child.attribute("familyName")) ?? ""
            let elementType = values.string(child.attribute("elementType")) ?? "face"
            guard family == "materialBind" || (family.isEmpty && child.attribute("material:binding") != nil) else { continue }
            guard elementType == "face" else {
                diagnostics.append(.warning("GeomSubset \(child.name) has elementType '\(elementType)'; only face subsets bind materials", at: child.location))
                continue
            }
            guard case .success(let faces)? = values.int32s(child.attribute("indices")) else {
                diagnostics.append(.warning("GeomSubset \(child.name) has no usable indices; ignored", at: child.location))
                continue
            }
            mesh.subsets.append(GeomSubset(name: child.name, faceIndices: faces))
            subsetPrims.append(child)
        }
        if let problem = mesh.topologyProblem() {
            diagnostics.append(.warning("\(problem); subsets dropped", at: prim.location))
            mesh.subsets = []
            subsetPrims = []
        }
        return Built(mesh: mesh, subsetPrims: subsetPrims)
    }

    /// `normals` (the attribute) and every `primvars:*`; `primvars:normals` wins over `normals`.
    private func primvars(of prim: USDComposedPrim, diagnostics: inout [Diagnostic]) -> [Primvar] {
        var result: [Primvar] = []
        // `primvars:skel:*` are UsdSkel's binding (joint influences, geomBindTransform), read by
        // USDSkelBuilder, not surface attributes.
        let names = prim.properties.keys.filter {
            $0.hasPrefix("primvars:") && !$0.hasSuffix(":indices") && !$0.hasPrefix("primvars:skel:")
        }.sorted()
        for name in names {
            guard let property = prim.properties[name], !property.spec.isRelationship else { continue }
            let shortName = String(name.dropFirst("primvars:".count))
            guard let primvar = makePrimvar(shortName, property, indices: prim.attribute(name + ":indices"), prim: prim,
                                            defaultInterpolation: .constant, diagnostics: &diagnostics) else { continue }
            result.append(primvar)
        }
        // UsdGeomPoints' sizes: an attribute, not a primvar, vertex-rate unless it says otherwise.
        if prim.typeName == "Points", let widths = prim.attribute("widths"),
           let primvar = makePrimvar(Primvar.widthsName, widths, indices: nil, prim: prim, defaultInterpolation: .vertex, diagnostics: &diagnostics) {
            result.append(primvar)
        }
        if !result.contains(where: { $0.name == Primvar.normalsName }), let normals = prim.attribute("normals"),
           let primvar = makePrimvar(Primvar.normalsName, normals, indices: nil, prim: prim,
                                     defaultInterpolation: .vertex, diagnostics: &diagnostics) {
            result.insert(primvar, at: 0)
        }
        return result
    }

    private func makePrimvar(_ name: String, _ property: USDComposedProperty, indices: USDComposedProperty?,
                             prim: USDComposedPrim, defaultInterpolation: Primvar.Interpolation,
                             diagnostics: inout [Diagnostic]) -> Primvar? {
        guard let value = values.value(property) else { return nil }
        let type = property.typeName.hasSuffix("[]") ? String(property.typeName.dropLast(2)) : property.typeName
        guard let components = Self.components(ofType: type) else { return nil }  // strings, tokens, ints with no use here
        let interpolationToken = property.metadata["interpolation"]?.stringValue ?? defaultInterpolation.rawValue
        guard let interpolation = Primvar.Interpolation(rawValue: interpolationToken) else {
            diagnostics.append(.warning("primvar \(name) has unknown interpolation '\(interpolationToken)'; dropped", at: prim.location))
            return nil
        }
        let data: PrimvarValues?
        switch (value, components) {
        // Single-precision arrays are read in the mesh's own layout: taken without a copy.
        case (.floats(.scalars(let v)), 1): data = .float(v)
        case (.floats(.pairs(let v)), 2): data = .float2(v)
        case (.floats(.triples(let v)), 3): data = .float3(v)
        default:
            guard let numbers = value.flatNumbers else { return nil }
            switch components {
            case 1: data = .float(numbers.map(Float.init))
            case 2: data = USDArrayConversion.float2(numbers).map(PrimvarValues.float2)
            case 3: data = USDArrayConversion.float3(numbers).map(PrimvarValues.float3)
            default: data = USDArrayConversion.float4(numbers).map(PrimvarValues.float4)
            }
        }
        guard let data else {
            diagnostics.append(.warning("primvar \(name) values do not fit its type \(property.typeName); dropped", at: prim.location))
            return nil
        }
        var indexList: [Int32]?
        if let indexValues = values.int32s(indices) {
            guard case .success(let ints) = indexValues else {
                diagnostics.append(.warning("primvar \(name):indices holds a non-integer; dropped", at: prim.location))
                return nil
            }
            indexList = ints
        }
        return Primvar(name: name, interpolation: interpolation, values: data, indices: indexList,
                       role: Self.role(ofType: type, name: name))
    }

    static func components(ofType type: String) -> Int? {
        switch type {
        case "float", "double", "half", "int", "uint", "uchar": return 1
        case "float2", "double2", "half2", "texCoord2f", "texCoord2d", "texCoord2h", "int2": return 2
        case "float3", "double3", "half3", "color3f", "color3d", "color3h", "normal3f", "normal3d", "normal3h",
             "point3f", "point3d", "point3h", "vector3f", "vector3d", "vector3h", "texCoord3f", "texCoord3d", "int3":
            return 3
        case "float4", "double4", "half4", "color4f", "color4d", "color4h", "int4": return 4
        default: return nil
        }
    }

    static func role(ofType type: String, name: String) -> Primvar.Role {
        if type.hasPrefix("texCoord2") { return .textureCoordinate }
        if type.hasPrefix("color") { return .color }
        if type.hasPrefix("normal") { return .normal }
        if type.hasPrefix("point") { return .point }
        if type.hasPrefix("vector") { return .vector }
        // Many exporters write texture coordinates as plain float2 named st, st1, uv, UVMap.
        if type.hasSuffix("2") && (name.hasPrefix("st") || name.lowercased().hasPrefix("uv")) { return .textureCoordinate }
        return .none
    }
}
