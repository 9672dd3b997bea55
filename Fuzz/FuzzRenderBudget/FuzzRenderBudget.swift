import AssetCore
import AssetRender
import FormatCollada
import FuzzSupport

/// libFuzzer entry point for drawing what a Collada file places (instancing is how a small file
/// asks for a great deal of drawing): the scene read under the fuzz limits is rendered small with
/// a drawing budget of 200,000 triangles, so every input ends in a picture or a typed refusal,
/// never a crash or a drawing that outlasts libFuzzer's timeout. Built only by `Scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.read(data, count, fileExtension: "dae") { url, options throws(AssetError) in
        let scene = try ColladaReader().read(from: url, options: options).scene
        var render = RenderOptions()
        render.size = 24
        render.supersample = 1
        // The headlight: prefiltering the studio environment, once per process, outlasts
        // libFuzzer's timeout under the address sanitizer, and it is not what is fuzzed here.
        render.lighting = .headlight
        render.limits = options.limits
        render.limits.maxPlacedTriangles = 200_000
        _ = try Renderer.render(scene, options: render)
    }
    return 0
}
