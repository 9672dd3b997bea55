import AssetCore

extension GLTFBuilder {
    /// A glTF mesh of one LINES primitive (mode 1): the curves' points, and an index pair per
    /// segment, so polylines of any length share one primitive.
    mutating func linesMesh(for instance: CurvesInstance) -> Int {
        let curves = scene.curves[instance.curves]
        let flat = curves.points.flatMap { [$0.x, $0.y, $0.z] }
        let position = addFloats(flat, type: "VEC3", count: curves.points.count, bounds: true)
        let indices = curves.segments().flatMap { [UInt32($0.0), UInt32($0.1)] }
        let primitive = GLTFDocument.Primitive(attributes: ["POSITION": position], indices: addIndices(indices),
                                               material: instance.material, mode: 1)
        document.meshes.append(GLTFDocument.Mesh(name: curves.name.isEmpty ? nil : curves.name, primitives: [primitive]))
        return document.meshes.count - 1
    }
}
