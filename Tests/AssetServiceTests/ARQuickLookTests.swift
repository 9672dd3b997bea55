import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
@testable import AssetService

/// AR Quick Look (issue 41): every model's page and gallery card link `rel="ar"` to its usdz, a
/// usdz that passes ARKit's rules is served as it is and any other model as the usdz conversion,
/// inline and as `model/vnd.usdz+zip`.
@Suite struct ARQuickLookTests {
    let temporary = TemporaryFolder("assetc-ar")

    @Test(arguments: CatalogBackend.allCases) func aPassingUsdzIsServedAsItIsAndOtherModelsConverted(_ backend: CatalogBackend) async throws {
        let (server, art) = try await makeServer(backend, in: temporary)
        try await withLiveServer(server) { client in
            let head = "/api/assets/Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz"
            let original = try Data(contentsOf: art.appendingPathComponent("SceneKitAssetCatalog.scnassets/LoomisHead.usdz"))
            try await client.execute(uri: head + "/ar.usdz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "model/vnd.usdz+zip")
                #expect(response.headers[.contentDisposition] == nil, "inline, for the AR viewer to open")
                #expect(Data(response.body.readableBytesView) == original, "a usdz passing ARKit's rules is not rewritten")
            }
            let ship = "/api/assets/Art/Art.scnassets/ship.dae"
            var converted = Data()
            var etag = ""
            try await client.execute(uri: ship + "/ar.usdz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "model/vnd.usdz+zip")
                #expect(response.headers[.contentDisposition] == nil)
                converted = Data(response.body.readableBytesView)
                etag = response.headers[.eTag] ?? ""
            }
            #expect(converted.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a zip package")
            try await client.execute(uri: ship + "/convert?to=usdz", method: .get) { response in
                #expect(Data(response.body.readableBytesView) == converted, "the same conversion the convert route serves")
                #expect(response.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            }
            try await client.execute(uri: ship + "/ar.usdz", method: .get, headers: [.ifNoneMatch: etag]) { #expect($0.status == .notModified) }
            try await client.execute(uri: "/api/assets/Art/Assets.xcassets/Planks.imageset/planks.png/ar.usdz", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no AR view"))
            }
        }
    }

    @Test(arguments: CatalogBackend.allCases) func pagesAndCardsCarryApplesARLink(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        // Apple's rule: the anchor marked rel="ar" holds one image and nothing else.
        let link = try Regex(#"<a rel="ar" class=ar href="([^"]+)"><img [^>]*></a>"#)
        let models = try await server.catalog.query("kind = model").map(\.id)
        try await withLiveServer(server) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                let targets = page.matches(of: link).map { String($0.output[1].substring ?? "") }
                #expect(Set(targets) == Set(models.map { "/api/assets/\($0)/ar.usdz" }), "every model, and no texture")
                #expect(targets.count == models.count && models.count >= 3)
                #expect(!page.contains("<a class=card"), "the AR link is not nested in the card's link")
            }
            try await client.execute(uri: "/assets/Art/Art.scnassets/ship.dae", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.matches(of: link).map { String($0.output[1].substring ?? "") } == ["/api/assets/Art/Art.scnassets/ship.dae/ar.usdz"])
                #expect(page.contains("View in AR"))
            }
            try await client.execute(uri: "/assets/Art/Assets.xcassets/Planks.imageset/planks.png", method: .get) { response in
                #expect(!String(buffer: response.body).contains("rel=\"ar\""))
            }
        }
    }
}
