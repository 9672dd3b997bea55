import AssetCore
import Foundation
import Testing
@testable import FormatUSD

/// Single-precision arrays are read as Float in the layout the scene keeps (`USDValue.floats`),
/// from text and from crate files alike; other numeric types stay Double.
@Suite struct USDFloatArrayTests {
    static let text = """
        #usda 1.0
        def Mesh "M"
        {
            point3f[] points = [(0.1, -2.5, 3), (1e-3, 4.75, -0.3333333)]
            texCoord2f[] primvars:st = [(0, 1), (0.25, 0.7)]
            float[] widths = [0.5, 1.1]
            double3[] d = [(0.1, 0.2, 0.3)]
            half3[] h = [(1, 2, 3)]
            float3[] empty = []
            float3[] pairs = [(1, 2), (3, 4)]
        }
        """

    private func properties(_ layer: USDLayer) throws -> [String: USDValue] {
        let prim = try #require(layer.rootPrims.first)
        return Dictionary(uniqueKeysWithValues: prim.properties.compactMap { p in p.defaultValue.map { (p.name, $0) } })
    }

    /// Each number is its Double narrowed to Float, as usd-core's text reader and the former
    /// Double path give.
    private func narrowed(_ text: String) -> Float { Float(Double(text)!) }

    private func expectSinglePrecision(_ values: [String: USDValue], _ source: String) {
        #expect(values["points"] == .floats(.triples([SIMD3(narrowed("0.1"), -2.5, 3), SIMD3(narrowed("1e-3"), 4.75, narrowed("-0.3333333"))])), "\(source)")
        #expect(values["primvars:st"] == .floats(.pairs([SIMD2(0, 1), SIMD2(0.25, narrowed("0.7"))])), "\(source)")
        #expect(values["widths"] == .floats(.scalars([0.5, narrowed("1.1")])), "\(source)")
        #expect(values["d"] == .numbers([0.1, 0.2, 0.3], components: 3), "\(source): double stays Double")
        #expect(values["h"]?.flatNumbers == [1, 2, 3], "\(source): half is not read as Float")
    }

    @Test func textArraysOfSinglePrecisionTypesAreFloats() throws {
        let layer = try USDAParser.parse(Array(Self.text.utf8), location: .file(path: "f.usda"))
        let values = try properties(layer)
        expectSinglePrecision(values, "usda")
        // What the fast path declines still reads, through the general parser, as before.
        #expect(values["empty"]?.flatNumbers == [])
        #expect(values["pairs"] == .numbers([1, 2, 3, 4], components: 2), "groups of the wrong size are not read as triples")
    }

    @Test func crateArraysOfSinglePrecisionTypesAreFloats() throws {
        // Without the mis-sized array, which a crate cannot hold.
        let text = Self.text.split(separator: "\n").filter { !$0.contains("pairs =") }.joined(separator: "\n")
        let layer = try USDAParser.parse(Array(text.utf8), location: .file(path: "f.usda"))
        let crate = try USDCrateParser.parse(try USDCrateWriter.encode(layer).bytes, location: .file(path: "f.usdc"))
        expectSinglePrecision(try properties(crate), "usdc")
    }

    /// The printer spells Float arrays as before: each number's shortest Float spelling.
    @Test func floatArraysPrintAsTheirTextRoundTrips() throws {
        let layer = try USDAParser.parse(Array(Self.text.utf8), location: .file(path: "f.usda"))
        let printed = USDAPrinter.print(layer)
        #expect(printed.contains("point3f[] points = [(0.1, -2.5, 3), (0.001, 4.75, -0.3333333)]"), "\(printed)")
        #expect(printed.contains("texCoord2f[] primvars:st = [(0, 1), (0.25, 0.7)]"))
        let again = try USDAParser.parse(Array(printed.utf8), location: .file(path: "again.usda"))
        #expect(try properties(again)["points"] == properties(layer)["points"])
    }
}

extension USDFloatArrayTests {
    /// Time-sampled single-precision arrays (crate files hold them as Float) interpolate between
    /// samples, lane by lane in Double, as the Double arrays did.
    @Test func timeSampledFloatArraysInterpolate() throws {
        let text = """
            #usda 1.0
            (
                startTimeCode = 2.5
            )
            def Mesh "M"
            {
                int[] faceVertexCounts = [3]
                int[] faceVertexIndices = [0, 1, 2]
                point3f[] points.timeSamples = {
                    0: [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
                    10: [(4, 0, 0), (5, 0, 0.4), (4, 1, 0)],
                }
            }
            """
        let layer = try USDAParser.parse(Array(text.utf8), location: .file(path: "t.usda"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("float-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("t.usdc")
        try Data(try USDCrateWriter.encode(layer).bytes).write(to: url)
        let crate = try USDCrateParser.parse(Array(try Data(contentsOf: url)), location: .file(path: url.path))
        let samples = try #require(crate.rootPrims.first?.properties.first { $0.name == "points" }?.timeSamples)
        guard case .floats(.triples) = samples[0].value else {
            Issue.record("the crate's samples must be read as Float triples for this test to mean anything")
            return
        }
        let scene = try USDReader().read(from: url, options: ReadOptions()).scene
        let mesh = try #require(scene.meshes.first)
        let quarter = 0.25
        func lerp(_ a: Float, _ b: Float) -> Float { Float(Double(a) + (Double(b) - Double(a)) * quarter) }
        #expect(mesh.points == [SIMD3(1, 0, 0), SIMD3(2, 0, lerp(0, 0.4)), SIMD3(1, 1, 0)])
    }
}
