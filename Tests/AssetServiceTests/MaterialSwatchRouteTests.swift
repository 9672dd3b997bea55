import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
@testable import AssetService

/// The asset page lists materials beside their swatches: one picture per asset from
/// `/api/assets/ID/swatches.png`, each name's square placed by CSS, no script needed.
@Suite struct MaterialSwatchRouteTests {
    let temporary = TemporaryFolder("assetc-swatches")

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ bytes: Data) -> (Int, Int)? {
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        let b = [UInt8](bytes)
        func big(_ at: Int) -> Int { b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    @Test(arguments: CatalogBackend.allCases) func thePageSpritesEachMaterialFromOnePicture(_ backend: CatalogBackend) async throws {
        let (server, _) = try await makeServer(backend, in: temporary)
        try await withLiveServer(server) { client in
            let ship = "Art/Art.scnassets/ship.dae"
            let entry = try #require(try await server.catalog.record(id: ship))
            #expect(entry.materialNames.count == 2)
            try await client.execute(uri: "/assets/" + ship, method: .get) { response in
                let page = String(buffer: response.body)
                let swatch = try Regex(#"<li><span class=swatch aria-hidden=true style="background-image:url\(&quot;([^&]+)&quot;\);background-position:(-?\d+)px (-?\d+)px"></span>([^<]+)</li>"#)
                let found = page.matches(of: swatch).map { ($0.output[1].substring.map(String.init), $0.output[2].substring.map(String.init),
                                                             $0.output[3].substring.map(String.init), $0.output[4].substring.map(String.init)) }
                #expect(found.map(\.3) == entry.materialNames.map { MarkupText.escape($0) })
                #expect(found.allSatisfy { $0.0 == "/api/assets/\(ship)/swatches.png" })
                #expect(found.map { "\($0.1 ?? "") \($0.2 ?? "")" } == ["0 0", "-32 0"], "two materials side by side")
            }
            try await client.execute(uri: "/api/assets/\(ship)/swatches.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let size = Self.pngSize(Data(response.body.readableBytesView))
                #expect(size.map { "\($0.0)x\($0.1)" } == "64x64", "two columns of 32 pixels")
            }
            try await client.execute(uri: "/api/assets/\(ship)", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""swatches":"/api/assets/Art/Art.scnassets/ship.dae/swatches.png""#))
            }
            try await client.execute(uri: "/api/assets/Art/Assets.xcassets/Planks.imageset/planks.png/swatches.png", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
