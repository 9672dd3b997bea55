import AssetCore
import Foundation
import Testing
@testable import FormatUSD

/// The printer is the parser's inverse: every usda fixture, parsed, printed and parsed again, is the
/// same layer document; and the crate encoding of that document reads back to it too.
@Suite struct USDAPrinterTests {
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.usd.path)) ?? []
        return names.filter { $0.hasSuffix(".usda") }.sorted()
    }()

    func parse(_ text: [UInt8], _ name: String) throws -> USDLayer {
        try USDAParser.parse(text, location: .file(path: name))
    }

    @Test func fixturesAreFound() {
        #expect(Self.fixtures.count >= 15)
    }

    @Test(arguments: fixtures)
    func printedLayerParsesToTheSameDocument(name: String) throws {
        let original = try parse(Array(try Data(contentsOf: Fixtures.usd(name))), name)
        let printed = USDAPrinter.print(original)
        let reparsed = try parse(Array(printed.utf8), name)
        #expect(USDLayerComparison.differences(original, reparsed) == [], "\(printed)")
        // Printing is stable: the second print is the first, byte for byte.
        #expect(USDAPrinter.print(reparsed) == printed)
    }

    @Test func valuesAreSpelledByTheirDeclaredType() throws {
        var prim = USDPrimSpec(specifier: .def, typeName: "Mesh", name: "M", line: 0)
        prim.metadata["apiSchemas"] = .list([.string("MaterialBindingAPI")])
        prim.properties = [
            .attribute("points", "point3f[]", .numbers([Double(Float(0.1)), 2, 3.5], components: 3)),
            .attribute("xformOp:transform", "matrix4d", .tuple([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, 2, 3, 1])),
            .attribute("doubleSided", "bool", .bool(true), uniform: true),
            .attribute("primvars:st", "texCoord2f[]", .numbers([0, 1], components: 2), metadata: ["interpolation": .string("vertex")]),
            .attribute("inputs:file", "asset", .asset("a@b.png")),
            .relationship("material:binding", to: "/Looks/M"),
            .connection("inputs:st", "float2", to: "/Looks/M/Reader.outputs:result"),
            // An int attribute may hold what no Int64 can (a fuzzer found the printer trapping on it).
            .attribute("big", "int", .number(1e30)),
            .attribute("half", "int[]", .numbers([0.5, 3], components: 1)),
        ]
        var layer = USDLayer(location: .file(path: "t.usda"))
        layer.metadata["upAxis"] = .string("Z")
        layer.rootPrims = [prim]
        let text = USDAPrinter.print(layer)
        #expect(text.contains("def Mesh \"M\" (\n    prepend apiSchemas = [\"MaterialBindingAPI\"]\n)"))
        // A float prints as the shortest text of its 32-bit value, not of the widened double.
        #expect(text.contains("point3f[] points = [(0.1, 2, 3.5)]"))
        #expect(text.contains("matrix4d xformOp:transform = ( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0.1, 2, 3, 1) )"))
        #expect(text.contains("uniform bool doubleSided = 1"))
        #expect(text.contains("texCoord2f[] primvars:st = [(0, 1)] (\n        interpolation = \"vertex\"\n    )"))
        #expect(text.contains("asset inputs:file = @@@a@b.png@@@"))
        #expect(text.contains("rel material:binding = </Looks/M>"))
        #expect(text.contains("float2 inputs:st.connect = </Looks/M/Reader.outputs:result>"))
        #expect(text.contains("int big = 1e+30"))
        #expect(text.contains("int[] half = [0.5, 3]"))
        let reparsed = try parse(Array(text.utf8), "t.usda")
        #expect(USDLayerComparison.differences(layer, reparsed) == [])
    }
}

/// The usda and usdc writers print and encode one layer document, so what they write reads back
/// to the same document: a drift between the two encodings fails here.
@Suite struct USDWritersAgreeTests {
    static let scenes = ["subsets_materials.usda", "primvars_indexed.usda", "xform_ops.usda", "gprims.usda", "purpose_visibility.usda"]

    @Test(arguments: scenes)
    func usdaAndUsdcOutputsAreTheSameDocument(name: String) throws {
        let scene = try USDReader().read(from: Fixtures.usd(name), options: ReadOptions()).scene
        let context = WriteContext(outputName: "out.usda", textureBytes: { _ in [0x89, 0x50, 0x4E, 0x47] })
        let text = try USDAWriter().write(scene, context: context).files[0].bytes
        var crateContext = context
        crateContext.outputName = "out.usdc"
        let crate = try USDCWriter().write(scene, context: crateContext).files[0].bytes
        #expect(crate.starts(with: Array("PXR-USDC".utf8)))
        let fromText = try USDAParser.parse(text, location: .file(path: "out.usda"))
        let fromCrate = try USDCrateParser.parse(crate, location: .file(path: "out.usdc"))
        #expect(USDLayerComparison.differences(fromText, fromCrate) == [])
        #expect(!fromText.rootPrims.isEmpty)
    }
}
