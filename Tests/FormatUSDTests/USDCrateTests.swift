import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatUSD

@Suite struct USDCrateTests {
    static let crateFixtures = ["gprims", "primvars_indexed", "references_internal", "subsets_materials", "syntax_everything",
                                "time_samples", "variants", "xform_ops", "zup_default_units"]

    func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    func text(_ name: String) throws -> USDLayer {
        try USDAParser.parse(bytes(Fixtures.usd(name + ".usda")), location: .file(path: name + ".usda"))
    }

    func crate(_ data: [UInt8], name: String = "t.usdc") throws(AssetError) -> USDLayer {
        try USDCrateParser.parse(data, location: .file(path: name))
    }

    // MARK: Integer coding

    @Test(arguments: [0, 1, 2, 3, 4, 5, 15, 16, 17, 1000, 100_000])
    func integerCodingRoundTrips(count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(count))
        // Deltas of every width: common, 8-, 16- and 32-bit.
        let values32 = (0..<count).map { i -> Int32 in
            switch i % 7 { case 0: 5; case 1: Int32.random(in: -100...100, using: &generator)
            case 2: Int32.random(in: -30000...30000, using: &generator); case 3: Int32.random(in: Int32.min...Int32.max, using: &generator)
            default: Int32(i) }
        }
        let coded = CrateIntegerCoding.encode32(values32)
        let decoded = try #require(coded.withUnsafeBytes { CrateIntegerCoding.decode32($0, count: count) })
        #expect(decoded == values32)
        let values64 = values32.map { Int64($0) * 4_000_000_000 }
        let coded64 = CrateIntegerCoding.encode64(values64)
        #expect(coded64.withUnsafeBytes { CrateIntegerCoding.decode64($0, count: count) } == values64)
    }

    @Test func integerCodingRefusesCorruptAndShortData() {
        let coded = CrateIntegerCoding.encode32((0..<100).map { Int32($0 * 1000) })
        // Asking for more values than were coded runs out of data.
        #expect(coded.withUnsafeBytes { CrateIntegerCoding.decode32($0, count: 10_000) } == nil)
        var broken = coded
        broken[0] = 5  // five chunks that are not there
        #expect(broken.withUnsafeBytes { CrateIntegerCoding.decode32($0, count: 100) } == nil)
    }

    @Test func constantRunsCompressFarBelowTheirSize() {
        let coded = CrateIntegerCoding.encode32([Int32](repeating: 3, count: 1_000_000))
        #expect(coded.count < 10_000)
    }

    // MARK: Reading usd-core's files

    @Test(arguments: crateFixtures)
    func usdCoreCrateReadsAsTheTextLayer(name: String) throws {
        let fromCrate = try crate(bytes(Fixtures.usd("crate/\(name).usdc")), name: name + ".usdc")
        let differences = USDLayerComparison.differences(try text(name), fromCrate)
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    @Test func everyCrateVersionReadsTheSame() throws {
        let versions = ["0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "0.10.0"]
        let reference = try crate(bytes(Fixtures.usd("crate/versions/LoomisHead-0.8.0.usdc")))
        #expect(!reference.rootPrims.isEmpty)
        for version in versions {
            let layer = try crate(bytes(Fixtures.usd("crate/versions/LoomisHead-\(version).usdc")))
            let differences = USDLayerComparison.differences(reference, layer)
            #expect(differences.isEmpty, "\(version): \(differences.prefix(5))")
        }
    }

    @Test func valuesKeepTheirTypesAndOrder() throws {
        let layer = try crate(bytes(Fixtures.usd("crate/xform_ops.usdc")))
        #expect(layer.defaultPrim == "Root")
        let rotated = try #require(layer.primSpec(at: "/Root/Orient"))
        let orient = try #require(rotated.properties.first { $0.name == "xformOp:orient" })
        #expect(orient.typeName == "quatf")
        // usda and USDValue put the real part first; the crate stores it last.
        #expect(orient.defaultValue == .tuple([Double(Float(0.8660254)), 0, 0.5, 0]))
        let samples = try crate(bytes(Fixtures.usd("crate/time_samples.usdc")))
        let animated = samples.rootPrims.flatMap(\.children).flatMap(\.properties).first { $0.timeSamples != nil }
        #expect((animated?.timeSamples?.count ?? 0) >= 2)
    }

    // MARK: Writing

    @Test(arguments: crateFixtures + ["sublayers", "references_external", "instanceable", "purpose_visibility", "ngons_concave"])
    func writtenCrateReadsBackAsTheLayer(name: String) throws {
        let original = try text(name)
        let written = try USDCrateWriter.encode(original)
        #expect(written.bytes.starts(with: Array("PXR-USDC".utf8)))
        let back = try crate(written.bytes)
        let differences = USDLayerComparison.differences(original, back)
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    @Test func pathsSplitIntoParentAndElement() throws {
        #expect(USDPathSplit.lastElement(of: "/A")! == ("/", "A", false))
        #expect(USDPathSplit.lastElement(of: "/A/B.points")! == ("/A/B", "points", true))
        #expect(USDPathSplit.lastElement(of: "/A{v=x}")! == ("/A", "{v=x}", false))
        #expect(USDPathSplit.lastElement(of: "/A{v=x}B")! == ("/A{v=x}", "B", false))
        #expect(USDPathSplit.lastElement(of: "/A{v=x}B.inputs:st")! == ("/A{v=x}B", "inputs:st", true))
        #expect(USDPathSplit.lastElement(of: "relative") == nil)
        #expect(try CrateLayerEncoder.absolute("../Looks/M", anchor: "/World/Mesh") == "/World/Looks/M")
        #expect(try CrateLayerEncoder.absolute("Surface.outputs:out", anchor: "/M") == "/M/Surface.outputs:out")
    }

    // MARK: Hostile files

    /// Every prefix of a valid file, and the file with bytes overwritten, must read or fail
    /// cleanly: the harness crashes (and the test fails) on any out-of-bounds read.
    @Test func damagedFilesFailCleanly() throws {
        let good = try bytes(Fixtures.usd("crate/subsets_materials.usdc"))
        var failures = 0
        for length in stride(from: 0, to: good.count, by: 7) {
            do { _ = try crate(Array(good[0..<length])) } catch { failures += 1 }
        }
        #expect(failures > 0)
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            var damaged = good
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do { _ = try crate(damaged) } catch { failures += 1 }
        }
        #expect(failures > 100)
    }

    /// A dictionary whose value is the dictionary itself must end in an error, not a loop.
    @Test func selfContainingDictionaryIsRefused() throws {
        var file = CrateFileBuilder()
        file.align(8)
        let offset = file.position
        let key = file.string("loop")
        file.u64(1); file.u32(key); file.i64(8)
        file.u64(ValueRep(type: .dictionary, payload: offset).bits)
        file.addSpec(path: 0, type: .pseudoRoot, fields: [("customLayerData", ValueRep(type: .dictionary, payload: offset))])
        let data = file.finish()
        #expect(throws: AssetError.self) { try crate(data) }
    }

    @Test(arguments: ["a b", "1x", "a-b", "x$"])
    /// Names assetc's own crate writer puts in the file verbatim (`..` it cannot write as an element);
    /// the reader holds them to the identifier rule usda prim names follow.
    func primNamesAreValidatedLikeUsdas(name: String) throws {
        var layer = USDLayer(location: .file(path: "t.usda"))
        layer.rootPrims = [USDPrimSpec(specifier: .def, typeName: "Xform", name: name, line: 0)]
        let data = try USDCrateWriter.encode(layer).bytes
        do {
            _ = try crate(data)
            Issue.record("a prim named '\(name)' was accepted")
        } catch {
            #expect(error.description.contains("is not a valid prim name"), "\(error)")
        }
    }
}

/// Large arrays are decoded on both cores before the layer is built; the layer and what the read
/// budget was charged must be exactly what the one-thread decode gives.
@Suite struct CratePrefetchTests {
    static func bigMeshLayer() throws -> [UInt8] {
        let side = 200
        var text = "#usda 1.0\ndef Mesh \"Grid\"\n{\n    int[] faceVertexCounts = [" + Array(repeating: "4", count: side * side).joined(separator: ", ") + "]\n"
        text += "    int[] faceVertexIndices = [" + (0..<(side * side)).map { q in
            let a = q + q / side
            return "\(a), \(a + 1), \(a + side + 2), \(a + side + 1)"
        }.joined(separator: ", ") + "]\n"
        text += "    point3f[] points = [" + (0..<((side + 1) * (side + 1))).map { i in
            "(\(i % (side + 1)), \(Double(i % 13) * 0.25), \(i / (side + 1)))"
        }.joined(separator: ", ") + "]\n"
        // The same values twice: the writer shares them, and each use is charged.
        text += "    float[] primvars:a = [" + (0..<70_000).map { String(Double($0) * 0.5) }.joined(separator: ", ") + "]\n"
        text += "    float[] primvars:b = [" + (0..<70_000).map { String(Double($0) * 0.5) }.joined(separator: ", ") + "]\n}\n"
        let layer = try USDAParser.parse(Array(text.utf8), location: .file(path: "big.usda"))
        return try USDCrateWriter.encode(layer).bytes
    }

    @Test func prefetchedLayerAndChargesMatchTheSequentialRead() throws {
        let bytes = try Self.bigMeshLayer()
        let parallelBudget = ReadBudget(ReadLimits()), sequentialBudget = ReadBudget(ReadLimits())
        let parallel = try USDCrateParser.parse(bytes, location: .file(path: "big.usdc"), budget: parallelBudget, prefetch: true)
        let sequential = try USDCrateParser.parse(bytes, location: .file(path: "big.usdc"), budget: sequentialBudget, prefetch: false)
        let differences = USDLayerComparison.differences(parallel, sequential)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        #expect(parallelBudget.bytesSpent == sequentialBudget.bytesSpent)
        #expect(parallelBudget.workSpent == sequentialBudget.workSpent)
        #expect(sequentialBudget.workSpent >= 2 * 70_000 + 160_000 + 40_000 + 3 * 40_401, "every array use is charged")
    }

    @Test func aBudgetTooSmallFailsTheSameWayEitherWay() throws {
        let bytes = try Self.bigMeshLayer()
        var limits = ReadLimits()
        limits.maxWork = 200_000
        func failure(prefetch: Bool) -> String? {
            do {
                _ = try USDCrateParser.parse(bytes, location: .file(path: "big.usdc"), budget: ReadBudget(limits), prefetch: prefetch)
                return nil
            } catch {
                return "\(error)"
            }
        }
        let sequential = failure(prefetch: false)
        #expect(sequential != nil, "the budget must be too small for the test to mean anything")
        #expect(failure(prefetch: true) == sequential)
    }
}
