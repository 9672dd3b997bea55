import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
@testable import AssetService

/// A copy of the sample assets in `folder`, indexed, served with a token.
func makeServer(_ backend: CatalogBackend, in folder: TemporaryFolder, token: String? = "test-token-123") async throws -> (AssetServer, URL) {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let work = folder.appendingPathComponent(token == nil ? "read-only" : "with-token")
    let art = work.appendingPathComponent("Art")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: repository.appendingPathComponent("Assets"), to: art)
    let catalog = try await TestCatalog.make(backend, folder: work.appendingPathComponent("catalog").path)
    _ = try await IndexUseCase().run(roots: [art.path], catalog: catalog)
    var configuration = ServiceConfiguration()
    configuration.token = token
    configuration.roots = [art.path]
    return (AssetServer(catalog: catalog, configuration: configuration), art)
}

func json(_ buffer: ByteBuffer) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
}

@Suite struct AssetServerTests {
    let temporary = TemporaryFolder("assetc-serve")

    @Test(arguments: CatalogBackend.allCases) func listingFiltersAndPages(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        try await withLiveServer(server) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                let health = try json(response.body)
                #expect(health["catalog"] as? String == (backend == .postgres ? "postgresql" : "sqlite"))
                #expect(health["assets"] as? String == "6" && health["thumbnailJobsPending"] as? String == "0")
            }
            try await client.execute(uri: "/api/search?q=loomis%20skull&limit=1", method: .get) { response in
                let items = try #require(try json(response.body)["items"] as? [[String: Any]])
                #expect(items.count == 1 && (items[0]["id"] as? String)?.contains("LoomisHead") == true, "\(items)")
            }
            try await client.execute(uri: "/api/search?q=", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/assets?limit=2", method: .get) { response in
                let page = try json(response.body)
                #expect((page["items"] as? [Any])?.count == 2)
                #expect(page["nextCursor"] as? String == "2")
            }
            try await client.execute(uri: "/api/assets?limit=2&cursor=5", method: .get) { response in
                let page = try json(response.body)
                #expect((page["items"] as? [Any])?.count == 1)
                #expect(page["nextCursor"] is NSNull)
            }
            let cases: [(String, [String])] = [
                ("format=dae", ["Art/Art.scnassets/ship.dae"]),
                ("minTriangles=1000&format=usdz", ["Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz"]),
                ("upAxis=Z", ["Art/Art.scnassets/ship.dae"]),
                ("where=triangles%20%3E%20100%20and%20upAxis%20%3D%20Y&sort=id", ["Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz", "Art/SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda"]),
                ("q=mast", ["Art/Art.scnassets/ship.dae"]),
                ("maxTriangles=0", []),
            ]
            for (query, expected) in cases {
                try await client.execute(uri: "/api/assets?\(query)", method: .get) { response in
                    let items = try json(response.body)["items"] as? [[String: Any]] ?? []
                    #expect(items.compactMap { $0["id"] as? String } == expected, "\(query)")
                }
            }
        }
    }

    @Test(arguments: CatalogBackend.allCases) func assetEndpointsServeRecordFileThumbnailAndConversion(_ backend: CatalogBackend) async throws {
        let (server, art) = try await makeServer(backend, in: temporary)
        try await withLiveServer(server) { client in
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae", method: .get) { response in
                let detail = try json(response.body)
                #expect((detail["nodes"] as? [String])?.contains("/Ship/Mast/Sail") == true)
                #expect((detail["record"] as? [String: Any])?["triangles"] as? Int == 148)
            }
            // The ARKit verdict: in the record and the detail for USD, absent for Collada, a badge in the pages.
            try await client.execute(uri: "/api/assets/Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz", method: .get) { response in
                let detail = try json(response.body)
                let record = try #require(detail["record"] as? [String: Any])
                #expect(record["arkitErrors"] as? Int == 0 && record["arkitWarnings"] as? Int == 1)
                #expect(detail["arkitRules"] as? [String] == [])
            }
            try await client.execute(uri: "/api/assets?where=arkitWarnings%20%3E%200", method: .get) { response in
                let items = try json(response.body)["items"] as? [[String: Any]] ?? []
                #expect(items.compactMap { $0["id"] as? String } == ["Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz"])
            }
            try await client.execute(uri: "/assets/Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz", method: .get) { response in
                #expect(String(buffer: response.body).contains("<span class=\"badge warn\">ARKit: 1 warning</span>"))
            }
            try await client.execute(uri: "/?where=format%20%3D%20usda", method: .get) { response in
                #expect(String(buffer: response.body).contains("<span class=\"badge pass\">ARKit: passes</span>"))
            }
            let original = try Data(contentsOf: art.appendingPathComponent("Art.scnassets/ship.dae"))
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/file", method: .get) { response in
                #expect(Data(response.body.readableBytesView) == original)
            }
            var etag = ""
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?size=64", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Array(response.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
                #expect(response.headers[.cacheControl]?.contains("max-age") == true)
                etag = response.headers[.eTag] ?? ""
            }
            #expect(!etag.isEmpty)
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?size=64", method: .get,
                                     headers: [.ifNoneMatch: etag]) { #expect($0.status == .notModified) }
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/convert?to=glb", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView.prefix(4)) == Array("glTF".utf8))
            }
            try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/convert?to=fbx", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView.prefix(18)) == Array("Kaydara FBX Binary".utf8))
            }
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("/assets/Art/Art.scnassets/ship.dae") && page.contains("thumbnail.png"))
            }
            try await client.execute(uri: "/assets/Art/Art.scnassets/ship.dae", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("view=top") && page.contains("convert?to=usdz") && page.contains("convert?to=fbx") && page.contains("planks.png"))
            }
        }
    }

    @Test(arguments: CatalogBackend.allCases) func errorsHaveTheirStatusesAndJSONBodies(_ backend: CatalogBackend) async throws {
        let (server, art) = try await makeServer(backend, in: temporary)
        // A link pointing outside the folder is neither indexed nor served.
        try FileManager.default.createSymbolicLink(atPath: art.appendingPathComponent("escape.dae").path, withDestinationPath: "/etc/hostname")
        _ = try await IndexUseCase().run(roots: [art.path], catalog: server.catalog)
        // A file gone since indexing has no thumbnail to make: the render path looks for it.
        try FileManager.default.removeItem(at: art.appendingPathComponent("Art.scnassets/ship.dae"))
        let expectations: [(String, HTTPRequest.Method, HTTPFields, HTTPResponse.Status)] = [
            ("/api/assets/Art/nope.dae", .get, [:], .notFound),
            ("/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?size=64", .get, [:], .notFound),
            ("/api/assets?where=tri%20%3E%205", .get, [:], .badRequest),
            ("/api/assets?minTriangles=many", .get, [:], .badRequest),
            ("/api/assets/Art/../../etc/passwd/file", .get, [:], .badRequest),
            ("/api/assets/Art/escape.dae/file", .get, [:], .notFound),
            ("/api/assets/Art%2F..%2F..%2Fetc%2Fpasswd/file", .get, [:], .badRequest),
            ("/api/assets/Art/Art.scnassets/ship.dae/convert?to=3ds", .get, [:], .badRequest),
            ("/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?view=sideways", .get, [:], .badRequest),
            ("/api/reindex", .post, [:], .unauthorized),
            ("/api/reindex", .post, [.authorization: "Bearer wrong-token"], .unauthorized),
        ]
        try await withLiveServer(server) { client in
            for (uri, method, headers, status) in expectations {
                try await client.execute(uri: uri, method: method, headers: headers) { response in
                    #expect(response.status == status, "\(method) \(uri)")
                    let error = try json(response.body)["error"] as? [String: Any]
                    #expect(error?["message"] is String, "\(uri) has a JSON error body")
                }
            }
        }
        let (readOnly, _) = try await makeServer(backend, in: temporary, token: nil)
        try await withLiveServer(readOnly) { client in
            try await client.execute(uri: "/api/reindex", method: .post, headers: [.authorization: "Bearer anything-at-all"]) {
                #expect($0.status == .forbidden, "mutations are off without --token")
            }
        }
    }

    @Test(arguments: CatalogBackend.allCases) func thumbnailSizesSnapToAFewSteps(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        try await withLiveServer(server) { client in
            for (asked, served) in [(16, 32), (100, 128), (129, 256), (256, 256), (1000, 1024)] {
                try await client.execute(uri: "/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?size=\(asked)", method: .get) { response in
                    #expect(response.status == .ok)
                    // The PNG's IHDR width, big-endian at bytes 16-19.
                    let bytes = Array(response.body.readableBytesView)
                    let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                    #expect(width == served, "size=\(asked)")
                    #expect(response.headers[.eTag]?.contains("-\(served)-iso") == true)
                }
            }
        }
        let cached = try FileManager.default.contentsOfDirectory(atPath: (server.catalog.folder as NSString).appendingPathComponent("thumbnails"))
        #expect(cached.count == 4, "one file per snapped size: \(cached.sorted())")
    }

    @Test(arguments: CatalogBackend.allCases) func deeplyNestedQueriesAreBadRequestsAndTheServerLivesOn(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        let deep = String(repeating: "(", count: 15_000) + "triangles%3E1" + String(repeating: ")", count: 15_000)
        try await withLiveServer(server) { client in
            try await client.execute(uri: "/api/assets?where=" + deep, method: .get) { response in
                #expect(response.status == .badRequest)
                let message = (try json(response.body)["error"] as? [String: Any])?["message"] as? String
                #expect(message?.contains("at most 8192 are accepted") == true, "\(String(describing: message))")
            }
            try await client.execute(uri: "/?where=" + deep, method: .get) { #expect($0.status == .badRequest) }
            let nested = String(repeating: "(", count: 1_000) + "triangles%3E1" + String(repeating: ")", count: 1_000)
            try await client.execute(uri: "/api/assets?where=" + nested, method: .get) { response in
                // 1,000 levels used to reach SQLite's own depth limit and answer 500.
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test(arguments: CatalogBackend.allCases) func liveServerAnswersWhileAReindexRuns(_ backend: CatalogBackend) async throws {
        let (server, art) = try await makeServer(backend, in: temporary)
        // Something for the reindex to do.
        try FileManager.default.copyItem(at: art.appendingPathComponent("Art.scnassets/ship.dae"), to: art.appendingPathComponent("copy.dae"))
        try await withLiveServer(server) { client in
            try await client.execute(uri: "/api/reindex", method: .post, headers: [.authorization: "Bearer test-token-123"]) {
                #expect($0.status == .accepted)
            }
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for k in 0..<40 {
                    group.addTask {
                        let uri = k % 2 == 0 ? "/api/assets?limit=10" : "/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png?size=32"
                        return try await client.execute(uri: uri, method: .get) { $0.status }
                    }
                }
                for try await status in group { #expect(status == .ok) }
            }
            // The reindex finishes and the new file is served.
            var found = false
            for _ in 0..<100 where !found {
                try await Task.sleep(nanoseconds: 50_000_000)
                found = try await client.execute(uri: "/api/assets/Art/copy.dae", method: .get) { $0.status == .ok }
            }
            #expect(found, "the reindex added copy.dae")
        }
    }
}
