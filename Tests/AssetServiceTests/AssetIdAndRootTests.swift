import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
@testable import AssetService

/// Ids as browsers build them (`encodeURIComponent` turns every `/` into `%2F`), and the asset root
/// the service reads under whatever the request says.
@Suite struct AssetIdAndRootTests {
    let temporary = TemporaryFolder("assetc-serve-ids")

    @Test(arguments: CatalogBackend.allCases) func aPercentEncodedIdWorksForEveryRouteAndAnEncodedDotDotIsRefused(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        let plain = "Art/Art.scnassets/ship.dae"
        let encoded = "Art%2FArt.scnassets%2Fship.dae"
        try await withLiveServer(server) { client in
            for suffix in ["", "/file", "/thumbnail.png?size=32", "/convert?to=glb"] {
                let expected = try await client.execute(uri: "/api/assets/\(plain)\(suffix)", method: .get) { $0 }
                try await client.execute(uri: "/api/assets/\(encoded)\(suffix)", method: .get) { response in
                    #expect(response.status == .ok, "\(suffix)")
                    #expect(response.headers[.contentType] == expected.headers[.contentType], "\(suffix)")
                    #expect(response.body == expected.body, "\(suffix) answers what the plain id answers")
                }
            }
            // Half encoded, as a client that encodes only the file name sends it.
            try await client.execute(uri: "/api/assets/Art/Art.scnassets%2Fship.dae/file", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/assets/\(encoded)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("convert?to=usdz"))
            }
            let refused = ["/api/assets/Art%2F..%2F..%2Fetc%2Fpasswd/file", "/api/assets/Art%2F%2E%2E%2Fsecret.dae",
                           "/api/assets/Art/Art.scnassets%2F..%2F..%2Fx/thumbnail.png", "/assets/Art%2F.%2Fship.dae",
                           "/api/assets/Art%2F%2Fship.dae", "/api/assets/Art%2F..%5C..%5Cx/file"]
            for uri in refused {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                }
            }
            try await client.execute(uri: "/api/assets/Art%2Fnope.dae", method: .get) { #expect($0.status == .notFound) }
        }
    }

    /// A library whose prop references a layer above the served folder: the index, the thumbnail
    /// and every conversion leave it out, and the record says why.
    @Test(arguments: CatalogBackend.allCases) func theServiceNeverResolvesOutsideItsRoot(_ backend: CatalogBackend) async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fixtures = repository.appendingPathComponent("Tests/Fixtures")
        let work = temporary.appendingPathComponent("rooted")
        let library = work.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("library"), to: library)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("outside_library.usda"),
                                         to: work.appendingPathComponent("outside_library.usda"))
        let catalog = try await TestCatalog.make(backend, folder: work.appendingPathComponent("catalog").path)
        _ = try await IndexUseCase().run(roots: [library.path], catalog: catalog)
        var configuration = ServiceConfiguration()
        configuration.roots = [library.path]
        let server = AssetServer(catalog: catalog, configuration: configuration)

        let room = try #require(try await catalog.record(id: "library/scenes/room.usda"))
        #expect(room.record.meshes == 3 && room.warnings.isEmpty, "shared layers two levels up resolve under the indexed folder")
        let stray = try #require(try await catalog.record(id: "library/props/stray/stray.usda"))
        #expect(stray.record.meshes == 1)
        #expect(stray.warnings.contains { $0.contains("is outside the asset root \(AssetRootPath.real(library.path))") })

        try await withLiveServer(server) { client in
            try await client.execute(uri: "/api/assets/library%2Fprops%2Fstray%2Fstray.usda/convert?to=usda", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("Inside") && !text.contains("900"), "the outside triangle is never read")
            }
            try await client.execute(uri: "/api/assets/library/scenes/room.usda/convert?to=usda", method: .get) { response in
                #expect(String(buffer: response.body).contains("Seat"), "references under the root are followed")
            }
            try await client.execute(uri: "/api/assets/library/props/stray/stray.usda/thumbnail.png?size=32", method: .get) {
                #expect($0.status == .ok)
            }
        }
    }
}

/// The resolved form of a path, as the refusal warning names the root.
enum AssetRootPath {
    static func real(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
}
