extension Scene {
    /// Triangles once every instance of the counted geometry is placed: what drawing the scene,
    /// or writing it to a format without instancing, has to process. Each mesh's count is
    /// computed once however often it is placed.
    public func instancedTriangleCount() -> Int {
        var perMesh = [Int?](repeating: nil, count: meshes.count)
        var total = 0
        for placed in placedMeshes() {
            let index = placed.instance.mesh
            if perMesh[index] == nil { perMesh[index] = meshes[index].triangleCount }
            total = total.addingReportingOverflow(perMesh[index]!).partialValue
        }
        return total
    }
}

extension ReadBudget {
    /// Charges the triangles `scene` holds after instancing, before anything draws or copies them.
    /// Returns the count, for callers with a budget of their own on it.
    @discardableResult
    public func spendInstancedTriangles(of scene: Scene, for what: String, at location: SourceLocation) throws(AssetError) -> Int {
        let triangles = scene.instancedTriangleCount()
        try spend(work: triangles, for: "\(what) (\(triangles) triangles once instances are placed)", at: location)
        return triangles
    }
}
