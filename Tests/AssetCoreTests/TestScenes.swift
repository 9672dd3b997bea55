@testable import AssetCore

/// Small scenes built by hand, with figures worked out on paper in each test.
enum TestScenes {
    /// Unit square in the XY plane, corners (0,0,0) to (1,1,0), one quad.
    static let quad = Mesh(
        name: "Quad",
        points: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
        faceVertexCounts: [4],
        faceVertexIndices: [0, 1, 2, 3])

    /// An L-shaped hexagon (concave at (1,1)), counter-clockwise seen from +Z. Area 3.
    static let lShape = Mesh(
        name: "L",
        points: [[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0], [1, 2, 0], [0, 2, 0]],
        faceVertexCounts: [6],
        faceVertexIndices: [0, 1, 2, 3, 4, 5])

    static func node(_ name: String, _ transform: Matrix4x4 = .identity, mesh: Int? = nil, children: [Node] = []) -> Node {
        Node(name: name, typeName: "Xform", transform: transform, children: children,
             meshInstances: mesh.map { [MeshInstance(mesh: $0)] } ?? [])
    }
}

/// Area of a triangle from three points.
func triangleArea(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) -> Double {
    Vector.length(Vector.cross(b.double - a.double, c.double - a.double)) / 2
}

/// The triangles of a triangulation as point triples.
func trianglePoints(_ mesh: Mesh, _ t: Triangulation) -> [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] {
    stride(from: 0, to: t.corners.count, by: 3).map { i in
        let p = { (k: Int) in mesh.points[Int(mesh.faceVertexIndices[Int(t.corners[i + k])])] }
        return (p(0), p(1), p(2))
    }
}
