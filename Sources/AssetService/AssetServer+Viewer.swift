import AssetKit
import Foundation
import Hummingbird

/// The asset page's 3D view: three.js r111 as Debian's libjs-three installs it, served by this
/// service (no CDN, nothing fetched at view time), and assetc's own viewer script.
extension AssetServer {
    /// The three files the view needs, by the name the page asks for, inside `threeFolder`.
    static let threeFiles = ["three.min.js": "three.min.js",
                             "GLTFLoader.js": "examples/js/loaders/GLTFLoader.js",
                             "OrbitControls.js": "examples/js/controls/OrbitControls.js",
                             "RGBELoader.js": "examples/js/loaders/RGBELoader.js",
                             "PMREMGenerator.js": "examples/js/pmrem/PMREMGenerator.js",
                             "PMREMCubeUVPacker.js": "examples/js/pmrem/PMREMCubeUVPacker.js"]

    /// Why the view cannot be offered, or nil when every file is there.
    var threeMissing: String? {
        let missing = Self.threeFiles.values.sorted().filter {
            !FileManager.default.fileExists(atPath: (configuration.threeFolder as NSString).appendingPathComponent($0))
        }
        guard !missing.isEmpty else { return nil }
        return "the 3D view needs three.js from Debian's libjs-three (\(configuration.threeFolder)/\(missing[0]) is missing; "
            + "Scripts/setup installs it)"
    }

    func threeFile(_ name: String, request: Request) throws -> Response {
        guard let relative = Self.threeFiles[name] else {
            throw HTTPError(.notFound, message: "no file '\(name)'; served: \(Self.threeFiles.keys.sorted().joined(separator: ", "))")
        }
        let path = (configuration.threeFolder as NSString).appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HTTPError(.notFound, message: "\(path) is missing: install Debian's libjs-three")
        }
        // The files change only with the package, whose version is in no URL here: a day, not a year.
        return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=86400"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The environment the thumbnails are lit by, as Radiance `.hdr` for the view's `RGBELoader`:
    /// the prefiltered mirror level (the source reduced to at most 256 texels wide, plenty for a
    /// view's reflections) with the rotation baked in, since r111 cannot turn an environment map.
    func environmentFile(_ request: Request) async throws -> Response {
        let look = configuration.render
        return try await cachedImage(key: "environment-\(look.lookDigest)", contentType: "image/vnd.radiance", request: request) {
            EnvironmentLibrary.viewerRadiance(for: look)
        }
    }

    /// The look the view copies from the thumbnails, as the section's data attributes.
    var viewerLook: String {
        let look = configuration.render
        return "data-lighting=\(look.lighting.rawValue) data-exposure=\(look.exposure) data-tone-mapping=\(look.effectiveToneMapping.rawValue)"
    }

    func viewerScript(_ request: Request) -> Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=300"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: ViewerScript.source)))
    }

    func splatViewScript(_ request: Request) -> Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=300"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: SplatViewScript.source)))
    }

    /// The view's markup: hidden until the script shows it, so without JavaScript the page is the
    /// thumbnails and links alone.
    /// An asset with splats loads the GLB made for the view (`view.glb`: its splats trimmed to what
    /// the view draws) and offers a Turn toggle.
    static func viewer(id: String, animated: Bool, splats: Bool = false, missing: String?, look: String = "") -> String {
        if let missing { return "<p class=muted>No 3D view: \(MarkupText.escape(missing)). The thumbnails show the model.</p>" }
        let api = "/api/assets/" + AssetPath.encode(id)
        let glb = splats ? "\(api)/view.glb" : "\(api)/convert?to=glb"
        return """
            <section id=viewer hidden data-glb="\(glb)" data-environment="/static/environment.hdr" \(look)>
            <canvas width=640 height=480 aria-label="3D view of the model: drag to turn, right-drag to pan, scroll to zoom"></canvas>
            <div class=controls><button type=button data-action=reset>Reset view</button>
            <label><input type=checkbox data-action=wireframe> Wireframe</label>
            <label><input type=checkbox data-action=normals> Normals</label>
            \(animated ? "<button type=button data-action=play>Pause</button> <select data-action=clip aria-label=clip></select>" : "")
            \(splats ? "<label><input type=checkbox data-action=turn checked> Turn</label>" : "")
            <span class=muted data-status>Loading…</span></div></section>
            <script src="/static/three/three.min.js"></script><script src="/static/three/GLTFLoader.js"></script>
            <script src="/static/three/OrbitControls.js"></script><script src="/static/three/RGBELoader.js"></script>
            <script src="/static/three/PMREMGenerator.js"></script><script src="/static/three/PMREMCubeUVPacker.js"></script>
            <script src="/static/assetc-splats.js"></script><script src="/static/assetc-viewer.js"></script>
            """
    }
}
