import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
@testable import AssetService

/// The animated preview route: an asset that moves gets a looping WebP of its first clip (and the
/// asset page and gallery show it); one that does not gets a 404 that says so.
@Suite struct AnimatedPreviewTests {
    let temporary = TemporaryFolder("assetc-preview")

    func server(_ backend: CatalogBackend) async throws -> AssetServer {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = temporary.appendingPathComponent("Moving")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixtures = repository.appendingPathComponent("Tests/Fixtures")
        for file in ["anim/skinned_arm.usda", "usd/minimal_mesh.usda"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(file),
                                             to: folder.appendingPathComponent((file as NSString).lastPathComponent))
        }
        let catalog = try await TestCatalog.make(backend, folder: temporary.appendingPathComponent("catalog").path)
        _ = try await IndexUseCase().run(roots: [folder.path], catalog: catalog)
        var configuration = ServiceConfiguration()
        configuration.roots = [folder.path]
        return AssetServer(catalog: catalog, configuration: configuration)
    }

    @Test(arguments: CatalogBackend.allCases) func aMovingAssetHasALoopingWebPAndAStillOneHasNone(_ backend: CatalogBackend) async throws {
        try await withLiveServer(try await server(backend)) { client in
            try await client.execute(uri: "/api/assets/Moving/skinned_arm.usda/preview.webp?size=64", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/webp")
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8))
                // An animated WebP is an extended file with an ANIM chunk and one ANMF per frame.
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.contains("ANIM"))
                #expect(text.components(separatedBy: "ANMF").count - 1 == 24)
            }
            try await client.execute(uri: "/api/assets/Moving/minimal_mesh.usda/preview.webp", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("does not move"))
            }
            var duration = -1.0
            try await client.execute(uri: "/api/assets/Moving/skinned_arm.usda", method: .get) { response in
                duration = (try json(response.body)["record"] as? [String: Any])?["duration"] as? Double ?? -1
                let links = try json(response.body)["links"] as? [String: String]
                #expect(links?["preview"] == "/api/assets/Moving/skinned_arm.usda/preview.webp")
            }
            try await client.execute(uri: "/assets/Moving/skinned_arm.usda", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("preview.webp?size=256"))
                #expect(page.contains("3 joints"))
                #expect(page.contains("clips, \(String(format: "%.2f", duration)) s, "), "the duration to a hundredth of a second")
                #expect(page.range(of: #"<td>[0-9.]+ KB \([0-9,]+ bytes\)</td>"#, options: .regularExpression) != nil, "the size for people, and exact")
            }
            // The gallery plays it under the pointer only: a still picture first, the WebP in CSS's
            // :hover; a still asset has no second picture.
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("<img class=\"thumbnail still moves\" src=\"/api/assets/Moving/skinned_arm.usda/thumbnail.png?size=256\""))
                #expect(page.contains("<img class=\"thumbnail moving\" src=\"/api/assets/Moving/skinned_arm.usda/preview.webp?size=256\""))
                #expect(page.contains("<img class=\"thumbnail still\" src=\"/api/assets/Moving/minimal_mesh.usda/thumbnail.png?size=256\""))
                #expect(!page.contains("minimal_mesh.usda/preview.webp"))
                #expect(page.contains(".card:hover .moving"))
            }
        }
    }

    @Test func figuresAreWrittenForPeople() {
        #expect(PeopleFigures.bytes(83) == "83 bytes" && PeopleFigures.bytes(1) == "1 byte")
        #expect(PeopleFigures.bytes(8_512) == "8.5 KB")
        #expect(PeopleFigures.bytes(1_254_000) == "1.25 MB")
        #expect(PeopleFigures.bytes(3_000_000_000) == "3.00 GB")
        #expect(PeopleFigures.seconds(2) == "2.00 s" && PeopleFigures.seconds(0.041666) == "0.04 s")
        #expect(PeopleFigures.count(2764) == "2,764" && PeopleFigures.count(1_000_000) == "1,000,000" && PeopleFigures.count(-1234) == "-1,234")
        #expect(PeopleFigures.count(999) == "999" && PeopleFigures.count(0) == "0")
    }
}
