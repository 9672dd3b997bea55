import AssetCore

extension GLTFBuilder {
    /// A point cloud (a mesh with points and no faces: a PLY scan, USD `Points`, OBJ `p`, glTF
    /// POINTS) as one POINTS primitive (mode 0) with its colours and normals, which Blender,
    /// three.js and model-viewer draw. glTF points have no size, so USD widths are not written.
    mutating func pointsMesh(for instance: MeshInstance) -> Int {
        let source = scene.meshes[instance.mesh]
        let count = source.points.count
        var attributes: [String: Int] = [:]
        attributes["POSITION"] = addFloats(type: "VEC3", count: count, width: 3, bounds: true) { out in
            for (i, p) in source.points.enumerated() { out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z }
        }
        if let colors = perPoint(source.primvar(named: Primvar.displayColorName), count: count) {
            attributes["COLOR_0"] = addFloats(type: "VEC4", count: count, width: 4) { out in
                for i in 0..<count {
                    let c = Mesh.color(colors.values, colors.index(i))
                    out[4 * i] = c.x; out[4 * i + 1] = c.y; out[4 * i + 2] = c.z; out[4 * i + 3] = c.w
                }
            }
        }
        if let normals = perPoint(source.normals, count: count), case .float3(let values) = normals.values {
            attributes["NORMAL"] = addFloats(type: "VEC3", count: count, width: 3) { out in
                for i in 0..<count {
                    let n = values[normals.index(i)]
                    let l = (n * n).sum().squareRoot()
                    let unit = l > 0 ? n / l : SIMD3(0, 1, 0)  // glTF requires unit normals
                    out[3 * i] = unit.x; out[3 * i + 1] = unit.y; out[3 * i + 2] = unit.z
                }
            }
        }
        let primitive = GLTFDocument.Primitive(attributes: attributes, indices: nil, material: instance.material, mode: 0)
        document.meshes.append(GLTFDocument.Mesh(name: source.name.isEmpty ? nil : source.name, primitives: [primitive]))
        return document.meshes.count - 1
    }

    /// A primvar that has one value per point (vertex, varying, or constant spread over them) and
    /// where each point's value is; nil for any other interpolation.
    private func perPoint(_ primvar: Primvar?, count: Int) -> (values: PrimvarValues, index: (Int) -> Int)? {
        guard let primvar, primvar.values.count > 0 else { return nil }
        switch primvar.interpolation {
        case .constant:
            return (primvar.values, { _ in 0 })
        case .vertex, .varying:
            if let indices = primvar.indices {
                guard indices.count == count, indices.allSatisfy({ $0 >= 0 && Int($0) < primvar.values.count }) else { return nil }
                return (primvar.values, { Int(indices[$0]) })
            }
            guard primvar.values.count == count else { return nil }
            return (primvar.values, { $0 })
        default:
            return nil
        }
    }
}
