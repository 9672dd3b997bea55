import AssetTestSupport
import CatalogTestSupport
import AssetCore
import Foundation
import Testing
@testable import AssetCatalog

/// A catalog of made-up records whose expected query answers can be read off the table below.
func makeCatalog(_ backend: CatalogBackend, in folder: TemporaryFolder) async throws -> any Catalog {
    let catalog = try await TestCatalog.make(backend, folder: folder.appendingPathComponent("catalog").path)
    func record(_ id: String, _ format: AssetFormat, triangles: Int, upAxis: String, missing: Int = 0, error: String? = nil) -> CatalogRecord {
        var r = CatalogRecord(id: id, root: "/r", kind: .model, format: format, byteSize: Int64(triangles * 10), contentHash: id,
                              modifiedAt: 0, indexedAt: 0)
        r.triangles = triangles
        r.upAxis = upAxis
        r.missingTextures = missing
        r.error = error
        return r
    }
    try await catalog.store([
        CatalogEntry(record: record("r/head.usdz", .usdz, triangles: 20_000, upAxis: "Y"), nodeNames: ["/LoomisHead", "/LoomisHead/Jaw"], materialNames: ["Clay"]),
        CatalogEntry(record: record("r/ship.dae", .dae, triangles: 148, upAxis: "Z", missing: 1), nodeNames: ["/Ship", "/Ship/Mast"], materialNames: ["Wood"]),
        CatalogEntry(record: record("r/tower.usda", .usda, triangles: 50_000, upAxis: "Z"), nodeNames: ["/Tower"]),
        CatalogEntry(record: record("r/broken_50%.usda", .usda, triangles: 0, upAxis: "Y", error: "r/broken.usda:3:1: '[' is never closed")),
    ])
    return catalog
}

@Suite struct CatalogQueryTests {
    let temporary = TemporaryFolder("assetc-catalog")

    func ids(_ catalog: any Catalog, _ expression: String, sort: String? = nil) async throws -> [String] {
        try await catalog.query(expression, sort: sort).map(\.id)
    }

    @Test(arguments: CatalogBackend.allCases) func everyOperatorReturnsTheRightRows(_ backend: CatalogBackend) async throws {
        let c = try await makeCatalog(backend, in: temporary)
        #expect(try await ids(c, "triangles > 10000 and format = usdz") == ["r/head.usdz"])
        #expect(try await ids(c, "triangles >= 20000") == ["r/head.usdz", "r/tower.usda"])
        #expect(try await ids(c, "triangles < 148") == ["r/broken_50%.usda"])
        #expect(try await ids(c, "triangles <= 148") == ["r/broken_50%.usda", "r/ship.dae"])
        #expect(try await ids(c, "triangles != 148") == ["r/broken_50%.usda", "r/head.usdz", "r/tower.usda"])
        #expect(try await ids(c, "upAxis = z") == ["r/ship.dae", "r/tower.usda"], "text equality ignores case")
        #expect(try await ids(c, "missingTextures > 0") == ["r/ship.dae"])
        #expect(try await ids(c, "name ~ jaw") == ["r/head.usdz"], "node paths are searched")
        #expect(try await ids(c, "name ~ wood") == ["r/ship.dae"], "material names too")
        #expect(try await ids(c, "name = Mast") == ["r/ship.dae"], "a node's own name matches its path's last part")
        #expect(try await ids(c, "name ~ '50%'") == ["r/broken_50%.usda"], "% is literal, not a wildcard")
        #expect(try await ids(c, "error != null") == ["r/broken_50%.usda"])
        #expect(try await ids(c, "error = null and not (format = dae or upAxis = Y)") == ["r/tower.usda"])
        #expect(try await ids(c, "") .count == 4)
        #expect(try await ids(c, "", sort: "-triangles") == ["r/tower.usda", "r/head.usdz", "r/ship.dae", "r/broken_50%.usda"])
        #expect(try await c.query("", limit: 2).count == 2)
    }

    @Test(arguments: CatalogBackend.allCases) func injectionAttemptsArePlainValues(_ backend: CatalogBackend) async throws {
        let c = try await makeCatalog(backend, in: temporary)
        #expect(try await ids(c, "format = \"usdz' OR 1=1 --\"").isEmpty)
        #expect(try await ids(c, "id = 'x''); DROP TABLE asset; --'").isEmpty)
        #expect(try await ids(c, "name ~ \"%' OR '1'='1\"").isEmpty)
        #expect(try await c.count() == 4, "the table is still there")
    }

    @Test(arguments: CatalogBackend.allCases) func errorsNameTheProblemAndItsColumn(_ backend: CatalogBackend) async throws {
        let c = try await makeCatalog(backend, in: temporary)
        func message(_ e: String) async -> String? {
            do { _ = try await c.query(e); return nil } catch { return error.description }
        }
        #expect(await message("tri > 5")?.hasPrefix("query:1:1: unknown field 'tri'; fields: id, path, name") == true)
        #expect(await message("triangles > lots") == "query:1:13: 'triangles' takes a number, not 'lots'")
        #expect(await message("format ~ ") == "query:1:9: expected a value after '~'")
        #expect(await message("(format = dae") == "query:1:1: '(' is never closed")
        #expect(await message("format = dae usdz") == "query:1:14: unexpected 'usdz' after the expression")
        #expect(await message("triangles ~ 5") == "query:1:11: '~' compares text; 'triangles' is a number")
        #expect(await message("format = 'open") == "query:1:10: string is never closed")
        await #expect(throws: AssetError.self) { try await c.query("", sort: "bogus") }
    }

    @Test(arguments: CatalogBackend.allCases) func hostileExpressionsAreLocatedErrorsNotCrashes(_ backend: CatalogBackend) async throws {
        let c = try await makeCatalog(backend, in: temporary)
        func message(_ e: String) async -> String? {
            do { _ = try await c.query(e); return nil } catch {
                #expect(error.kind == .malformed(error.message), "a query mistake, not an I/O failure: \(error)")
                return error.description
            }
        }
        func nested(_ levels: Int) -> String {
            String(repeating: "(", count: levels) + "triangles > 1" + String(repeating: ")", count: levels)
        }
        #expect(await message(nested(15_000)) == "query:1:1: the expression is 30013 bytes; at most 8192 are accepted")
        #expect(await message(nested(4_000)) == "query:1:33: parentheses and 'not' nest at most 32 levels deep")
        let nots = Array(repeating: "not", count: 2_000).joined(separator: " ") + " triangles > 1"
        #expect(await message(nots) == "query:1:129: parentheses and 'not' nest at most 32 levels deep")
        let wide = Array(repeating: "triangles > 1", count: 300).joined(separator: " or ")
        #expect(await message(wide)?.hasPrefix("query:1:") == true)
        #expect(await message(wide)?.hasSuffix("an expression holds at most 256 comparisons") == true)
        #expect(await message("format = '" + String(repeating: "x", count: 9_000) + "'") == "query:1:1: the expression is 9011 bytes; at most 8192 are accepted")
        // Right at the limits, a query still runs.
        let thirtyTwo = String(repeating: "(", count: 32) + "triangles > 30000" + String(repeating: ")", count: 32)
        #expect(try await ids(c, thirtyTwo) == ["r/tower.usda"])
        #expect(try await ids(c, Array(repeating: "format = zzz", count: 255).joined(separator: " or ") + " or format = dae") == ["r/ship.dae"])
    }

    @Test(arguments: CatalogBackend.allCases) func searchRanksNameMatches(_ backend: CatalogBackend) async throws {
        let c = try await makeCatalog(backend, in: temporary)
        #expect(try await c.search("mast").map(\.id) == ["r/ship.dae"])
        #expect(try await c.search("loomis").map(\.id) == ["r/head.usdz"], "camel-cased names split into words")
        #expect(try await c.search("nothing here").isEmpty)
    }
}
