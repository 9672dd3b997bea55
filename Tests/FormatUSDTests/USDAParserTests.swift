import AssetCore
import Testing
@testable import FormatUSD

@Suite struct USDAParserTests {
    func parse(_ text: String) throws(AssetError) -> USDLayer {
        try USDAParser.parse(Array(text.utf8), location: .file(path: "t.usda"))
    }

    func parseError(_ text: String) -> AssetError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test func layerMetadataAndSublayers() throws {
        let layer = try parse("""
            #usda 1.0
            (
                "the doc"
                defaultPrim = "A"
                upAxis = "Z"
                metersPerUnit = 0.01
                startTimeCode = 3
                subLayers = [@a.usda@ (offset = 2; scale = 1), @b.usda@]
            )
            """)
        #expect(layer.defaultPrim == "A")
        #expect(layer.upAxis == "Z")
        #expect(layer.metersPerUnit == 0.01)
        #expect(layer.startTimeCode == 3)
        #expect(layer.subLayers == ["a.usda", "b.usda"])
        #expect(layer.metadata["comment"] == .string("the doc"))
    }

    @Test func primsPropertiesAndArcs() throws {
        let layer = try parse("""
            #usda 1.0
            def Xform "A" (
                prepend references = [@x.usda@</X>, </Local>]
                payload = @p.usda@
                inherits = </_class>
                variants = { string look = "red" }
                instanceable = true
            )
            {
                uniform token[] xformOpOrder = ["xformOp:translate"]
                double3 xformOp:translate = (1, 2, 3)
                point3f[] points = [(0, 0, 0), (1, 2, 3)]
                int[] faceVertexIndices = [0, 1, 2]
                color3f inputs:c.connect = </A/S.outputs:rgb>
                float t.timeSamples = { 2: 20, 1: 10 }
                rel material:binding = </M>
                over "Child" { }
            }
            """)
        let prim = try #require(layer.rootPrims.first)
        #expect(prim.specifier == .def)
        #expect(prim.typeName == "Xform")
        #expect(prim.references == [USDReference(assetPath: "x.usda", primPath: "/X", line: 3),
                                    USDReference(assetPath: "", primPath: "/Local", line: 3)])
        #expect(prim.payloads.map(\.assetPath) == ["p.usda"])
        #expect(prim.inherits == ["/_class"])
        #expect(prim.variantSelections == ["look": "red"])
        #expect(prim.metadata["instanceable"] == .bool(true))
        let properties = Dictionary(uniqueKeysWithValues: prim.properties.map { ($0.name, $0) })
        #expect(properties["xformOpOrder"]?.isUniform == true)
        #expect(properties["xformOp:translate"]?.defaultValue == .tuple([1, 2, 3]))
        #expect(properties["points"]?.defaultValue == .floats(.triples([SIMD3(0, 0, 0), SIMD3(1, 2, 3)])), "single precision, read in the mesh's layout")
        #expect(properties["points"]?.typeName == "point3f[]")
        #expect(properties["faceVertexIndices"]?.defaultValue == .integers([0, 1, 2]))
        #expect(properties["inputs:c"]?.targets == ["/A/S.outputs:rgb"])
        #expect(properties["t"]?.timeSamples?.map(\.time) == [1, 2])
        #expect(properties["material:binding"]?.isRelationship == true)
        #expect(properties["material:binding"]?.targets == ["/M"])
        #expect(prim.children.map(\.name) == ["Child"])
        #expect(prim.children.first?.specifier == .over)
    }

    @Test func stringsAndAssetsDecodeEscapes() throws {
        let layer = try parse(#"""
            #usda 1.0
            def "A"
            {
                string s = "tab\there \"q\" \x41\101"
                string t = """multi
            line"""
                asset a = @@@odd@name.png@@@
            }
            """#)
        let properties = try #require(layer.rootPrims.first?.properties)
        #expect(properties[0].defaultValue == .string("tab\there \"q\" AA"))
        #expect(properties[1].defaultValue == .string("multi\nline"))
        #expect(properties[2].defaultValue == .asset("odd@name.png"))
    }

    /// USD's grammar for `@@@` paths: `\@@@` is the only escape, other backslashes are path
    /// characters, and up to two `@` just before the closing three belong to the path.
    @Test func tripleQuotedAssetPathsFollowUSDsGrammar() throws {
        let cases: [(String, String)] = [
            (#"@@@a\@@@b.usda@@@"#, "a@@@b.usda"),
            (#"@@@ends\@@@@@@"#, "ends@@@"),
            ("@@@mail@@@@", "mail@"),
            ("@@@two@@@@@", "two@@"),
            ("@@@@lead.png@@@", "@lead.png"),
            ("@@@a@@b.png@@@", "a@@b.png"),
            (#"@@@C:\dir\f.png@@@"#, #"C:\dir\f.png"#),
        ]
        for (written, path) in cases {
            let layer = try parse("#usda 1.0\ndef \"A\"\n{\n    asset a = \(written)\n    asset b = @next.png@\n}\n")
            let properties = try #require(layer.rootPrims.first?.properties)
            #expect(properties.first?.defaultValue == .asset(path), "\(written)")
            #expect(properties.last?.defaultValue == .asset("next.png"), "\(written) ends where it should")
        }
    }

    /// What the printer writes for any path, the parser reads back unchanged.
    @Test func assetPathsRoundTripThroughThePrinter() throws {
        for path in ["plain.png", "a@b.png", "x@", "x@@", "x@@@", "@@@", "a@@@b@@@c", #"back\slash@.png"#] {
            let text = "#usda 1.0\ndef \"A\"\n{\n    asset a = \(USDAValueText.asset(path))\n}\n"
            let layer = try parse(text)
            #expect(layer.rootPrims.first?.properties.first?.defaultValue == .asset(path), "\(path) as \(USDAValueText.asset(path))")
        }
    }

    @Test func errorsAreLocated() {
        #expect(parseError("#usda 1.0\ndef Xform \"A\" {\n    float x = \n}\n")?.description
                == "t.usda:4:1: expected a value, found '}'")
        #expect(parseError("#usda 1.0\ndef Xform A {}\n")?.description
                == "t.usda:2:11: expected the prim's name in quotes, found 'A'")
        #expect(parseError("#usda 1.0\ndef \"A\" {\n  point3f[] p = [(1, 2, 3), (4, 5)]\n}\n")?.description
                == "t.usda:3:29: array element has 2 numbers where the first had 3")
        #expect(parseError("#usda 1.0\ndef \"9bad\" {}\n")?.description == "t.usda:2:5: '9bad' is not a valid prim name")
        #expect(parseError("hello")?.kind == .malformed("not a usda layer: the first line must be '#usda 1.0'"))
    }

    @Test func nestingIsCapped() {
        let depth = 600
        let text = "#usda 1.0\n" + String(repeating: "def \"n\" {\n", count: depth) + String(repeating: "}\n", count: depth)
        let error = parseError(text)
        #expect(error?.kind == .limitExceeded("prims nested deeper than 512 levels"))
        let deepValue = "#usda 1.0\ndef \"A\" {\n  custom string x = " + String(repeating: "[", count: 100) + "\n}\n"
        #expect(parseError(deepValue)?.kind == .limitExceeded("values nested deeper than 64 levels"))
    }

    @Test func arrayElementCapHolds() throws {
        var limits = ReadLimits()
        limits.maxArrayElements = 4
        do {
            _ = try USDAParser.parse(Array("#usda 1.0\ndef \"A\" {\n int[] i = [1, 2, 3, 4, 5]\n}\n".utf8),
                                     location: .file(path: "t.usda"), budget: ReadBudget(limits))
            Issue.record("an array over the cap was accepted")
        } catch {
            #expect(error.kind == .limitExceeded("more than 4 array elements"))
        }
    }
}
