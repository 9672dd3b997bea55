import AssetImage
import AssetCatalog
import AssetKit
import AssetTestSupport
import CatalogTestSupport
import Foundation
import Hummingbird
import Testing
import AssetRender
@testable import AssetService

/// The asset page's 3D view markup: present for a model when three.js is installed (and hidden
/// until the script shows it), one line saying why when it is not, never for a texture.
@Suite struct ViewerPageTests {
    let temporary = TemporaryFolder("assetc-viewer")

    @Test func theViewNeedsThreeJSAndSaysSoWithoutIt() async throws {
        let (server, _) = try await makeServer(.sqlite, in: temporary)
        var missing = server.configuration
        missing.threeFolder = temporary.appendingPathComponent("no-three").path
        let without = AssetServer(catalog: server.catalog, configuration: missing)
        let head = "/assets/Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz"
        try await withLiveServer(without) { client in
            try await client.execute(uri: head, method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("No 3D view: the 3D view needs three.js from Debian&apos;s libjs-three"))
                #expect(!page.contains("<script"), "no script tags pointing at files that are not there")
                #expect(page.contains("thumbnail.png?size=256&amp;view=iso"), "the thumbnails stay")
            }
            try await client.execute(uri: "/static/three/three.min.js", method: .get) { #expect($0.status == .notFound) }
        }
        var present = server.configuration
        let three = temporary.appendingPathComponent("three")
        for file in AssetServer.threeFiles.values {
            let path = three.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("/* \(file) */".utf8).write(to: path)
        }
        present.threeFolder = three.path
        try await withLiveServer(AssetServer(catalog: server.catalog, configuration: present)) { client in
            try await client.execute(uri: head, method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("<section id=viewer hidden data-glb=\"/api/assets/Art/SceneKitAssetCatalog.scnassets/LoomisHead.usdz/convert?to=glb\" data-environment=\"/static/environment.hdr\" data-lighting=environment data-exposure=0.0 data-tone-mapping=neutral>"))
                #expect(page.contains("<script src=\"/static/three/three.min.js\"></script>"))
                #expect(page.contains("<script src=\"/static/three/PMREMGenerator.js\"></script>"))
                #expect(!page.contains("data-action=play"), "a still model has no play control")
                #expect(!page.contains("data-action=turn"), "a model without splats does not turn by itself")
                #expect(page.contains("<script src=\"/static/assetc-splats.js\"></script><script src=\"/static/assetc-viewer.js\"></script>"))
            }
            try await client.execute(uri: "/static/three/GLTFLoader.js", method: .get) { response in
                #expect(String(buffer: response.body) == "/* examples/js/loaders/GLTFLoader.js */")
                #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
            }
            try await client.execute(uri: "/static/three/..%2F..%2Fetc%2Fpasswd", method: .get) { #expect($0.status == .notFound) }
            // The thumbnails' environment for the view's RGBELoader: the studio's mirror level as RGBE.
            try await client.execute(uri: "/static/environment.hdr", method: .get) { response in
                let bytes = Array(buffer: response.body)
                let (image, _) = try EnvironmentDecoder.decode(bytes)
                let studio = StudioEnvironment.prefiltered.specularLevels[0]
                #expect(image.width == studio.width && image.height == studio.height)
                // RGBE keeps 8 bits a channel; the studio is grey, so each channel is its texel's brightest.
                let worst = zip(image.texels, studio.texels).map { abs($0 - $1) / max($1, 1e-3) }.max() ?? 1
                #expect(worst < 0.01, "the served environment is the studio to RGBE's precision: \(worst)")
            }
            try await client.execute(uri: "/static/assetc-viewer.js", method: .get) { response in
                #expect(String(buffer: response.body).contains("THREE.GLTFLoader"))
            }
            try await client.execute(uri: "/static/assetc-splats.js", method: .get) { response in
                #expect(String(buffer: response.body).contains("window.AssetcSplatView"))
                #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
            }
            try await client.execute(uri: "/assets/Art/Assets.xcassets/Planks.imageset/planks.png", method: .get) { response in
                #expect(!String(buffer: response.body).contains("id=viewer"))
            }
        }
    }

    /// A capture's view loads the GLB made for the view (splats trimmed) and offers the Turn toggle,
    /// checked; an asset id with spaces and a `#` stays one encoded path.
    @Test func aSplatAssetsViewLoadsTheViewGLBAndTurns() {
        let page = AssetServer.viewer(id: "Captures/a #1.ply", animated: false, splats: true, missing: nil)
        #expect(page.contains("data-glb=\"/api/assets/Captures/a%20%231.ply/view.glb\""))
        #expect(page.contains("<input type=checkbox data-action=turn checked> Turn"))
        let mesh = AssetServer.viewer(id: "Captures/a #1.ply", animated: false, splats: false, missing: nil)
        #expect(mesh.contains("data-glb=\"/api/assets/Captures/a%20%231.ply/convert?to=glb\"") && !mesh.contains("data-action=turn"))
        #expect(AssetPath.actions.contains("view.glb"))
    }
}
