import AssetCore
import Testing
@testable import AssetRender

/// A placed mesh names its materials by the shader's table: the scene's materials its triangles use,
/// numbered in the order they first do, -1 for a face with none or with a number past the scene's.
/// `placed` finds them by walking the triangles only until every material the instance binds is seen;
/// this holds it to the plain rule, renumbering every triangle one by one, over subsets that overlap,
/// cover every face, rebind the whole mesh's material, bind nothing, name no material, and sit on
/// faces that give no triangle.
@Suite struct MaterialNumberingTests {
    /// A strip of `count` quads, the even ones degenerate when `degenerateEven` (all corners on a line).
    static func strip(_ count: Int, subsets: [GeomSubset], degenerateEven: Bool = false) -> Mesh {
        var points: [SIMD3<Float>] = [], counts: [Int32] = [], indices: [Int32] = []
        for q in 0..<count {
            let x = Float(q), flat = degenerateEven && q % 2 == 0
            let base = Int32(points.count)
            points += [[x, 0, 0], [x + 1, 0, 0], [x + 1, flat ? 0 : 1, 0], [x, flat ? 0 : 1, 0]]
            counts.append(4)
            indices += [base, base + 1, base + 2, base + 3]
        }
        return Mesh(name: "strip", points: points, faceVertexCounts: counts, faceVertexIndices: indices, subsets: subsets)
    }

    /// The plain rule: each triangle's face's material, renumbered in order of first use.
    static func reference(_ mesh: Mesh, _ instance: MeshInstance, materialCount: Int, triangleFaces: [UInt32]) -> (numbers: [Int32], used: [Int]) {
        var faceMaterial = [Int32](repeating: Int32(instance.material ?? -1), count: mesh.faceVertexCounts.count)
        for (s, subset) in mesh.subsets.enumerated() where s < instance.subsetMaterials.count {
            guard let m = instance.subsetMaterials[s] else { continue }
            for f in subset.faceIndices { faceMaterial[Int(f)] = Int32(m) }
        }
        var local = [Int32](repeating: -1, count: materialCount), used: [Int] = []
        let numbers = triangleFaces.map { face -> Int32 in
            let m = Int(faceMaterial[Int(face)])
            guard m >= 0 && m < materialCount else { return -1 }
            if local[m] < 0 { local[m] = Int32(used.count); used.append(m) }
            return local[m]
        }
        return (numbers, used)
    }

    static let cases: [(name: String, subsets: [GeomSubset], instance: MeshInstance, degenerate: Bool)] = [
        ("one material", [], MeshInstance(mesh: 0, material: 3), false),
        ("no material", [], MeshInstance(mesh: 0), false),
        ("a number past the scene's", [], MeshInstance(mesh: 0, material: 9), false),
        ("subsets covering every face", [GeomSubset(name: "a", faceIndices: Array(0..<6)), GeomSubset(name: "b", faceIndices: Array(6..<12))],
         MeshInstance(mesh: 0, material: 1, subsetMaterials: [4, 2]), false),
        ("overlapping, the later wins", [GeomSubset(name: "a", faceIndices: Array(0..<12)), GeomSubset(name: "b", faceIndices: [5, 7])],
         MeshInstance(mesh: 0, material: 1, subsetMaterials: [4, 2]), false),
        ("every face moved off and back to the whole mesh's material",
         [GeomSubset(name: "a", faceIndices: Array(0..<12)), GeomSubset(name: "b", faceIndices: Array(0..<12))],
         MeshInstance(mesh: 0, material: 1, subsetMaterials: [4, 1]), false),
        ("a subset without a material and an empty one", [GeomSubset(name: "a", faceIndices: [2, 3]), GeomSubset(name: "b", faceIndices: [])],
         MeshInstance(mesh: 0, material: 0, subsetMaterials: [nil, 5]), false),
        ("a subset only on faces with no triangle, later faces first used", [GeomSubset(name: "a", faceIndices: [0, 2, 4]), GeomSubset(name: "b", faceIndices: [9])],
         MeshInstance(mesh: 0, material: 2, subsetMaterials: [5, 0]), true),
        ("a subset naming no scene material", [GeomSubset(name: "a", faceIndices: [1, 8])],
         MeshInstance(mesh: 0, material: 2, subsetMaterials: [7]), false),
    ]

    @Test(arguments: cases.indices)
    func placedNumbersMaterialsAsRenumberingEveryTriangleWould(_ index: Int) {
        let (name, subsets, instance, degenerate) = Self.cases[index]
        let mesh = Self.strip(12, subsets: subsets, degenerateEven: degenerate)
        let shape = DrawMesh(mesh: mesh)
        let placed = shape.placed(mesh, instance: instance, world: .identity, materialCount: 6)
        let expected = Self.reference(mesh, instance, materialCount: 6, triangleFaces: shape.triangleFaces)
        #expect(placed.mesh.triangleMaterials == expected.numbers, "\(name)")
        #expect(placed.used == expected.used, "\(name)")
        if degenerate { #expect(shape.triangleCount < 24, "the flat quads give no triangle") }
    }
}
