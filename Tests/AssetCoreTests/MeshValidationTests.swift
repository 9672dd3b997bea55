import Testing
@testable import AssetCore

@Suite struct MeshValidationTests {
    @Test func wellFormedMeshHasNoProblem() {
        #expect(TestScenes.lShape.topologyProblem() == nil)
    }

    @Test func outOfRangeIndexIsNamed() {
        var mesh = TestScenes.quad
        mesh.faceVertexIndices[2] = 7
        #expect(mesh.topologyProblem() == "faceVertexIndices[2] = 7 is outside the 4 points")
    }

    @Test func countsThatDoNotAddUpAreNamed() {
        var mesh = TestScenes.quad
        mesh.faceVertexCounts = [3]
        #expect(mesh.topologyProblem() == "faceVertexCounts add up to 3 but there are 4 faceVertexIndices")
        mesh.faceVertexCounts = [-4]
        #expect(mesh.topologyProblem()?.contains("negative") == true)
    }

    @Test func subsetNamingAMissingFaceIsNamed() {
        var mesh = TestScenes.quad
        mesh.subsets = [GeomSubset(name: "Left", faceIndices: [0, 1])]
        #expect(mesh.topologyProblem() == "subset Left names face 1 of 1")
    }

    @Test func primvarsThatDoNotFitAreListed() {
        var mesh = TestScenes.quad
        mesh.primvars = [
            Primvar(name: "st", interpolation: .faceVarying, values: .float2(Array(repeating: .zero, count: 4)),
                    role: .textureCoordinate),
            Primvar(name: "normals", interpolation: .vertex, values: .float3([[0, 0, 1]])),
            Primvar(name: "st1", interpolation: .faceVarying, values: .float2([.zero]), indices: [0, 0, 0, 1]),
            Primvar(name: "displayColor", interpolation: .constant, values: .float3([[1, 0, 0]])),
        ]
        let problems = mesh.primvarProblems()
        #expect(problems.map(\.index) == [1, 2])
        #expect(problems[0].problem == "primvar normals has 1 values; vertex needs 4")
        #expect(problems[1].problem == "primvar st1 index 1 is outside its 1 values")
        #expect(mesh.texcoordSets.map(\.name) == ["st"])
    }
}
