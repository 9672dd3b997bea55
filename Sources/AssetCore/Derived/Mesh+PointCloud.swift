extension Mesh {
    /// A point cloud: points and no faces (a PLY scan, USD `Points`, OBJ `p`, glTF POINTS).
    public var isPointCloud: Bool { faceVertexCounts.isEmpty && !points.isEmpty }

    /// The point cloud of the points `order` names, in that order, each per-point primvar following.
    public func selectingPoints(_ order: [Int32]) -> Mesh {
        var selected = self
        let count = points.count
        selected.points = order.map { points[Int($0)] }
        for k in selected.primvars.indices where selected.primvars[k].interpolation == .vertex || selected.primvars[k].interpolation == .varying {
            if let indices = selected.primvars[k].indices {
                guard indices.count == count else { continue }
                selected.primvars[k].indices = order.map { indices[Int($0)] }
            } else if selected.primvars[k].values.count == count {
                selected.primvars[k].indices = order
            }
        }
        return selected
    }
}
