"""A textured quad packaged by usd-core's UsdUtils.CreateNewUsdzPackage, the tool users package with: the
large usdz the bucket tests and benchmark read by ranges. Noise textures do not compress, so the package is
about as large as its pixels."""
import numpy as np
from PIL import Image
from pxr import Sdf, UsdUtils

LAYER = """#usda 1.0
(
    defaultPrim = "Quad"
    metersPerUnit = 1
    upAxis = "Y"
)

def Xform "Quad"
{
    def Mesh "Mesh" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
        texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
            interpolation = "vertex"
        )
        rel material:binding = </Quad/Looks/Noise>
    }

    def Scope "Looks"
    {
        def Material "Noise"
        {
            token outputs:surface.connect = </Quad/Looks/Noise/Surface.outputs:surface>

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor.connect = </Quad/Looks/Noise/Texture.outputs:rgb>
                token outputs:surface
            }

            def Shader "Reader"
            {
                uniform token info:id = "UsdPrimvarReader_float2"
                token inputs:varname = "st"
                float2 outputs:result
            }

            def Shader "Texture"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @textures/noise.png@
                float2 inputs:st.connect = </Quad/Looks/Noise/Reader.outputs:result>
                float3 outputs:rgb
            }
        }
    }
}
"""


def textured_quad_package(folder, textures=1, pixels=1024, compress_level=6):
    """`folder`/quad.usdz, whose material names `textures` noise PNGs of `pixels` square."""
    (folder / "textures").mkdir(parents=True, exist_ok=True)
    layer = LAYER
    for k in range(textures):
        noise = np.random.default_rng(7 + k).integers(0, 256, (pixels, pixels, 3), dtype=np.uint8)
        Image.fromarray(noise).save(folder / f"textures/noise{k}.png", compress_level=compress_level)
        if k:  # each further texture has a shader of its own, so usd-core packages it as a dependency
            layer = layer.replace('def Shader "Reader"', f'def Shader "Extra{k}"\n            {{\n                uniform token info:id = "UsdUVTexture"\n'
                                  f'                asset inputs:file = @textures/noise{k}.png@\n            }}\n\n            def Shader "Reader"', 1)
    (folder / "quad.usda").write_text(layer.replace("textures/noise.png", "textures/noise0.png"))
    package = folder / "quad.usdz"
    assert UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(str(folder / "quad.usda")), str(package))
    return package
