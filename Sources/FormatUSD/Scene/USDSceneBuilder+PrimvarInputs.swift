import AssetCore

extension USDSceneBuilder {
    /// Preview surface inputs a UsdPrimvarReader feeds, read from the meshes bound to the material
    /// (usd-wg's Teapot: diffuseColor <- primvars:displayColor, whose value a `shadingVariant`
    /// sets). Blender, usdview and RealityKit draw the primvar.
    ///
    /// diffuseColor becomes vertex colour: the primvar is the mesh's `displayColor` (a mesh without
    /// it takes the reader's fallback), the base colour white, and the material says so
    /// (`baseColorFromVertexColor`) so USD writers write the reader back. The scene model holds
    /// the other inputs as one value per material: a primvar that is one value on every bound mesh
    /// is exact; one that varies is averaged, with a warning.
    mutating func applyPrimvarInputs(_ readers: [String: [USDMaterialBuilder.PrimvarInput]]) {
        guard !readers.isEmpty else { return }
        var meshesOf: [Int: [Int]] = [:]
        scene.forEachNode { node, _ in
            for instance in node.meshInstances {
                for material in Set([instance.material].compactMap { $0 } + instance.subsetMaterials.compactMap { $0 }) {
                    if meshesOf[material]?.contains(instance.mesh) != true { meshesOf[material, default: []].append(instance.mesh) }
                }
            }
        }
        for (path, inputs) in readers.sorted(by: { $0.key < $1.key }) {
            guard let m = materialIndex[path] else { continue }
            let meshes = meshesOf[m] ?? []
            for input in inputs {
                if input.input == "diffuseColor" {
                    for mesh in meshes { takeVertexColor(input, mesh: mesh) }
                    scene.materials[m].baseColor = MaterialProperty(.one)
                    scene.materials[m].baseColorFromVertexColor = true
                } else {
                    setConstant(input, material: m, meshes: meshes)
                }
            }
        }
    }

    /// The reader's primvar as the mesh's displayColor; the fallback, constant, where the mesh has none.
    private mutating func takeVertexColor(_ input: USDMaterialBuilder.PrimvarInput, mesh: Int) {
        var primvars = scene.meshes[mesh].primvars
        if let k = primvars.firstIndex(where: { $0.name == input.varname }), primvars[k].values.componentCount >= 3 {
            guard input.varname != Primvar.displayColorName else { return }
            var color = primvars[k]
            color.name = Primvar.displayColorName
            color.role = .color
            primvars.removeAll { $0.name == Primvar.displayColorName }
            primvars.append(color)
        } else {
            let f = input.fallback + [0, 0, 0]
            diagnostics.append(.warning("mesh \(scene.meshes[mesh].name) has no colour primvar \(input.varname) for its material's diffuseColor; the reader's fallback is used",
                                        at: input.location))
            primvars.removeAll { $0.name == Primvar.displayColorName }
            primvars.append(Primvar(name: Primvar.displayColorName, interpolation: .constant, values: .float3([SIMD3(f[0], f[1], f[2])]), role: .color))
        }
        scene.meshes[mesh].primvars = primvars
    }

    /// A scalar or colour input as one value: the primvar's over every bound mesh.
    private mutating func setConstant(_ input: USDMaterialBuilder.PrimvarInput, material m: Int, meshes: [Int]) {
        let width = ["emissiveColor", "specularColor"].contains(input.input) ? 3 : 1
        var sum = [Double](repeating: 0, count: width), count = 0
        var distinct: Set<[Float]> = []
        for mesh in meshes {
            guard let primvar = scene.meshes[mesh].primvars.first(where: { $0.name == input.varname }) else {
                distinct.insert(Array(input.fallback.prefix(width)))
                continue
            }
            for i in 0..<primvar.values.count {
                let v = Mesh.color(primvar.values, i)
                let value = Array([v.x, v.y, v.z].prefix(width))
                if distinct.count < 2 { distinct.insert(value) }
                for c in 0..<width { sum[c] += Double(value[c]) }
                count += 1
            }
        }
        let value: [Float] = count == 0 ? Array((input.fallback + [0, 0, 0]).prefix(width)) : sum.map { Float($0 / Double(count)) }
        if distinct.count > 1 {
            diagnostics.append(.warning("material \(scene.materials[m].name): inputs:\(input.input) reads primvar \(input.varname), which varies over its meshes; the scene model holds one value, their mean \(value.map { "\($0)" }.joined(separator: " "))",
                                        at: input.location))
        }
        switch input.input {
        case "emissiveColor": scene.materials[m].emissive = MaterialProperty(SIMD3(value[0], value[1], value[2]))
        case "specularColor": scene.materials[m].specularColor = MaterialProperty(SIMD3(value[0], value[1], value[2]))
        case "metallic": scene.materials[m].metallic = MaterialProperty(value[0])
        case "roughness": scene.materials[m].roughness = MaterialProperty(value[0])
        case "opacity": scene.materials[m].opacity = MaterialProperty(value[0])
        case "clearcoat": scene.materials[m].clearcoat = MaterialProperty(value[0])
        case "clearcoatRoughness": scene.materials[m].clearcoatRoughness = MaterialProperty(value[0])
        default: break
        }
    }
}
