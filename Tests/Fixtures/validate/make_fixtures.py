"""Builds the validation fixtures: one clean stage and, for each ARKit rule, stages and packages
made to break it. Layers are written as usda text (each shows the one thing it breaks); packages
are zipped here with the layout each rule looks at (aligned or not, stored or deflated).

    python3 Tests/Fixtures/validate/make_fixtures.py     # rewrites the fixtures beside this script
"""
import pathlib
import struct
import zipfile
import zlib

HERE = pathlib.Path(__file__).resolve().parent
HEADER = '#usda 1.0\n(\n    defaultPrim = "Root"\n    metersPerUnit = 1\n    upAxis = "Y"\n)\n\n'

# A one-triangle mesh bound to a preview material; `{material}` is the material's body.
MESH = '''def Mesh "Tri" (
    prepend apiSchemas = ["MaterialBindingAPI"]
)
{
    int[] faceVertexCounts = [3]
    int[] faceVertexIndices = [0, 1, 2]
    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    texCoord2f[] primvars:st = [(0, 0), (1, 0), (0, 1)] (
        interpolation = "vertex"
    )
    rel material:binding = </Root/Looks/Paint>
}
'''

SURFACE = '''def Material "Paint"
{
    token outputs:surface.connect = </Root/Looks/Paint/Surface.outputs:surface>

    def Shader "Surface"
    {
        uniform token info:id = "UsdPreviewSurface"
        color3f inputs:diffuseColor.connect = </Root/Looks/Paint/Albedo.outputs:rgb>
        normal3f inputs:normal.connect = </Root/Looks/Paint/Normal.outputs:rgb>
        float inputs:roughness = 0.5
        token outputs:surface
    }

    def Shader "Reader"
    {
        uniform token info:id = "UsdPrimvarReader_float2"
        string inputs:varname = "st"
        float2 outputs:result
    }

    def Shader "Albedo"
    {
        uniform token info:id = "UsdUVTexture"
        asset inputs:file = @{albedo}@
        float2 inputs:st.connect = </Root/Looks/Paint/Reader.outputs:result>
        float3 outputs:rgb
    }

    def Shader "Normal"
    {
        uniform token info:id = "UsdUVTexture"
        asset inputs:file = @textures/normal.png@
        float2 inputs:st.connect = </Root/Looks/Paint/Reader.outputs:result>
{normal_inputs}        float3 outputs:rgb
    }
}
'''
GOOD_NORMAL = '''        token inputs:sourceColorSpace = "raw"
        float4 inputs:scale = (2, 2, 2, 1)
        float4 inputs:bias = (-1, -1, -1, 0)
'''


def stage(body, header=HEADER):
    return header + body


def root(children):
    return 'def Xform "Root"\n{\n' + indent(children) + '}\n'


def indent(text):
    return "".join(("    " + line if line.strip() else line) for line in text.splitlines(True))


def textured(albedo="textures/albedo.png", normal_inputs=GOOD_NORMAL, extra=""):
    looks = 'def Scope "Looks"\n{\n' + indent(SURFACE.replace("{albedo}", albedo).replace("{normal_inputs}", normal_inputs)) + '}\n'
    return root(MESH + "\n" + looks + extra)


TRI_POINTS = "[(0, 0, 0), (1, 0, 0), (0, 1, 0)]"
QUAD_POINTS = "[(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]"


def mesh_prim(name, counts, indices, points, body=""):
    return (f'def Mesh "{name}"\n{{\n    int[] faceVertexCounts = {counts}\n    int[] faceVertexIndices = {indices}\n'
            f'    point3f[] points = {points}\n{body}}}\n\n')


def subset(name, indices):
    return (f'\n    def GeomSubset "{name}"\n    {{\n        uniform token elementType = "face"\n'
            f'        uniform token familyName = "materialBind"\n        int[] indices = {indices}\n    }}\n')


def png(width, height, rgb):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def bmp(width, height):
    row = (width * 3 + 3) & ~3
    pixels = b"\x80" * row * height
    return (b"BM" + struct.pack("<IHHI", 54 + len(pixels), 0, 0, 54)
            + struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0) + pixels)


def tiff(width, height, colour=(90, 160, 30)):
    """A baseline TIFF (TIFF 6.0, little-endian): one uncompressed RGB strip, the IFD after it."""
    pixels = bytes(colour) * width * height
    bits_at = 8 + len(pixels)
    ifd_at = bits_at + 6
    entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 3, bits_at), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, 8), (277, 3, 1, 3), (278, 3, 1, height), (279, 4, 1, len(pixels))]
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", *e) for e in entries) + struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", ifd_at) + pixels + struct.pack("<HHH", 8, 8, 8) + ifd


def package(path, entries, align=True, compress=()):
    """A zip of (name, bytes) in order; `align` pads each local header's extra field so the data
    starts at a multiple of 64, as usdz requires; names in `compress` are deflated."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED if name in compress else zipfile.ZIP_STORED
            if align:
                offset = archive.fp.tell() + 30 + len(name.encode())
                pad = (-(offset + 4)) % 64
                # An unknown extra field (id 0x1986, as usdzip writes) of `pad` zero bytes.
                info.extra = struct.pack("<HH", 0x1986, pad) + b"\x00" * pad
            archive.writestr(info, data)


def main():
    (HERE / "textures").mkdir(exist_ok=True)
    (HERE / "textures" / "albedo.png").write_bytes(png(4, 4, (200, 120, 40)))
    (HERE / "textures" / "normal.png").write_bytes(png(4, 4, (128, 128, 255)))
    (HERE / "textures" / "albedo.bmp").write_bytes(bmp(4, 4))
    (HERE / "textures" / "albedo.tif").write_bytes(tiff(4, 4))
    # A whole 1x1 GIF (a colour table, one image, its LZW data), so `--fix` can convert it.
    (HERE / "textures" / "albedo.gif").write_bytes(bytes.fromhex("47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b"))
    (HERE / "geometry.usda").write_text(stage(root('def Mesh "Tri"\n{\n    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n}\n')))
    (HERE / "legacy.sdf").write_text('#sdf 1.4.32\n(\n    defaultPrim = "Root"\n)\n\ndef Xform "Root"\n{\n}\n')

    layers = {
        "clean.usda": stage(textured()),
        # StageMetadataChecker: nothing declared; then a Z-up stage; then a defaultPrim that is not there.
        "stage_metadata_missing.usda": stage(textured(), header="#usda 1.0\n\n"),
        "stage_metadata_zup.usda": stage(textured(), header=HEADER.replace('"Y"', '"Z"')),
        "stage_metadata_bad_default.usda": stage(textured(), header=HEADER.replace('"Root"', '"Nowhere"')),
        # MissingReferenceChecker: a reference to a missing layer, a texture that is not there.
        "missing_reference.usda": stage(root('def Xform "Part" (\n    references = @./not_here.usda@\n)\n{\n}\n')),
        "missing_texture.usda": stage(textured(albedo="textures/not_here.png")),
        "missing_prim.usda": stage(root('def Xform "Part" (\n    references = @./geometry.usda@</Nowhere>\n)\n{\n}\n')),
        # TextureChecker: a non-portable format and one it does not know.
        "texture_bmp.usda": stage(textured(albedo="textures/albedo.bmp")),
        "texture_gif.usda": stage(textured(albedo="textures/albedo.gif")),
        "texture_tif.usda": stage(textured(albedo="textures/albedo.tif")),
        # MaterialXChecker (assetc's own): a material whose only surface is MaterialX, which AR Quick Look shows grey.
        "materialx_only.usda": stage(root('def Mesh "Tri" (\n    prepend apiSchemas = ["MaterialBindingAPI"]\n)\n{\n'
                                          '    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n'
                                          '    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n'
                                          '    rel material:binding = </Root/Looks/Mx>\n}\n\n'
                                          'def Scope "Looks"\n{\n    def Material "Mx"\n    {\n'
                                          '        token outputs:mtlx:surface.connect = </Root/Looks/Mx/Surface.outputs:out>\n\n'
                                          '        def Shader "Surface"\n        {\n'
                                          '            uniform token info:id = "ND_standard_surface_surfaceshader"\n'
                                          '            color3f inputs:base_color = (0.8, 0.2, 0.1)\n            token outputs:out\n        }\n    }\n}\n')),
        # PrimEncapsulationChecker: a mesh under a mesh, a shader under a shader, a shader in a Scope in a Material.
        "encapsulation_gprim.usda": stage(root('def Mesh "Outer"\n{\n    def Xform "Between"\n    {\n        def Sphere "Inner"\n        {\n        }\n    }\n}\n')),
        "encapsulation_shader.usda": stage(root('def Material "M"\n{\n    def Shader "A"\n    {\n        uniform token info:id = "UsdPreviewSurface"\n\n        def Shader "B"\n        {\n            uniform token info:id = "UsdUVTexture"\n        }\n    }\n\n    def Scope "Group"\n    {\n        def Shader "C"\n        {\n            uniform token info:id = "UsdUVTexture"\n        }\n    }\n}\n')),
        # NormalMapTextureChecker: an 8-bit normal map read as sRGB without scale and bias; one with
        # the right scale and the wrong bias; one with a non-standard scale (a warning only).
        "normal_map_unscaled.usda": stage(textured(normal_inputs="")),
        "normal_map_bad_bias.usda": stage(textured(normal_inputs=GOOD_NORMAL.replace("(-1, -1, -1, 0)", "(0, 0, 0, 0)"))),
        "normal_map_odd_scale.usda": stage(textured(normal_inputs=GOOD_NORMAL.replace("(2, 2, 2, 1)", "(1, 1, 1, 1)"))),
        # MaterialBindingAPIAppliedChecker: a binding without the API.
        "binding_api_missing.usda": stage(textured().replace('(\n        prepend apiSchemas = ["MaterialBindingAPI"]\n    )\n    ', '')),
        # SkelBindingAPIAppliedChecker: skinning primvars without the API; the API outside a SkelRoot.
        "skel_binding_missing.usda": stage(root('def SkelRoot "Rig"\n{\n    def Mesh "Skin"\n    {\n        int[] faceVertexCounts = [3]\n        int[] faceVertexIndices = [0, 1, 2]\n        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n        int[] primvars:skel:jointIndices = [0, 0, 0] (\n            elementSize = 1\n            interpolation = "vertex"\n        )\n    }\n}\n')),
        "skel_binding_outside_root.usda": stage(root('def Mesh "Skin" (\n    prepend apiSchemas = ["SkelBindingAPI"]\n)\n{\n    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n}\n')),
        # ARKitLayerChecker: a layer in the older sdf text format.
        "layer_sdf.usda": stage(root('def Xform "Part" (\n    references = @./legacy.sdf@\n)\n{\n}\n')),
        # ARKitPrimTypeChecker: curves, an instancer and a light.
        "prim_types.usda": stage(root('def BasisCurves "Hair"\n{\n}\n\ndef PointInstancer "Scatter"\n{\n}\n\ndef SphereLight "Lamp"\n{\n}\n')),
        # ARKitShaderChecker: an unknown id, a source-asset shader, a connection to nothing, one to a NodeGraph.
        "shader_unknown_id.usda": stage(root('def Material "M"\n{\n    def Shader "S"\n    {\n        uniform token info:id = "PxrSurface"\n    }\n}\n')),
        "shader_source_asset.usda": stage(root('def Material "M"\n{\n    def Shader "S"\n    {\n        uniform token info:implementationSource = "sourceAsset"\n        uniform asset info:glslfx:sourceAsset = @textures/albedo.png@\n    }\n}\n')),
        "shader_dangling.usda": stage(root('def Material "M"\n{\n    def Shader "S"\n    {\n        uniform token info:id = "UsdPreviewSurface"\n        color3f inputs:diffuseColor.connect = </Root/M/Gone.outputs:rgb>\n    }\n\n    def NodeGraph "G"\n    {\n        float outputs:r\n    }\n\n    def Shader "T"\n    {\n        uniform token info:id = "UsdPreviewSurface"\n        float inputs:roughness.connect = </Root/M/G.outputs:r>\n    }\n}\n')),
        # ARKitMaterialBindingChecker: a binding to an Xform.
        "binding_not_material.usda": stage(textured().replace("rel material:binding = </Root/Looks/Paint>", "rel material:binding = </Root/Looks>")),
        # assetc's own mesh checks (usdchecker has none): indices naming no point, a two-vertex face,
        # primvars sized unlike their interpolation, a NaN point and a face with no area, subsets that
        # overlap or name no face; and a texture whose st comes from no primvar reader.
        "mesh_indices.usda": stage(root(mesh_prim("Tri", "[3]", "[0, 1, 7]", TRI_POINTS))),
        "mesh_counts.usda": stage(root(mesh_prim("Tri", "[3, 2]", "[0, 1, 2, 0, 1]", TRI_POINTS))),
        "mesh_primvars.usda": stage(root(mesh_prim("Tri", "[3]", "[0, 1, 2]", TRI_POINTS,
            '    texCoord2f[] primvars:st = [(0, 0), (1, 0)] (\n        interpolation = "faceVarying"\n    )\n'
            '    normal3f[] normals = [(0, 0, 1)]\n'
            '    float2[] primvars:uv = [(0, 0), (1, 1)] (\n        interpolation = "vertex"\n    )\n'
            '    int[] primvars:uv:indices = [0, 1, 2]\n'))),
        "mesh_geometry.usda": stage(root(mesh_prim("Tri", "[3]", "[0, 1, 2]", "[(0, 0, 0), (nan, 0, 0), (0, 1, 0)]")
                                         + mesh_prim("Flat", "[3, 3]", "[0, 1, 2, 0, 1, 3]", "[(0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 0, 0)]")
                                         + 'def Mesh "Empty"\n{\n}\n')),
        "mesh_subsets.usda": stage(root(mesh_prim("Quad", "[3, 3]", "[0, 1, 2, 0, 2, 3]", "[(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]",
            subset("A", "[0, 1]") + subset("B", "[1]") + subset("C", "[5]")))),
        # GeomSubset families with their type authored: a partition that leaves a face out, a
        # nonOverlapping family that uses a face twice, a bound subset outside the materialBind
        # family, and a subset under a prim that is not Imageable.
        "mesh_subset_families.usda": stage(root(
            mesh_prim("Part", "[3, 3]", "[0, 1, 2, 0, 2, 3]", QUAD_POINTS,
                      '    uniform token subsetFamily:materialBind:familyType = "partition"\n' + subset("A", "[0]"))
            + mesh_prim("Over", "[3, 3]", "[0, 1, 2, 0, 2, 3]", QUAD_POINTS,
                        '    uniform token subsetFamily:materialBind:familyType = "nonOverlapping"\n' + subset("A", "[0, 1]") + subset("B", "[1]"))
            + mesh_prim("Named", "[3, 3]", "[0, 1, 2, 0, 2, 3]", QUAD_POINTS,
                        '\n    def GeomSubset "Painted" (\n        prepend apiSchemas = ["MaterialBindingAPI"]\n    )\n    {\n'
                        '        uniform token elementType = "face"\n        uniform token familyName = "paint"\n        int[] indices = [0]\n'
                        '        rel material:binding = </Root/Looks/M>\n    }\n')
            + 'def Scope "Looks"\n{\n    def Material "M"\n    {\n        def GeomSubset "Odd"\n        {\n            int[] indices = [0]\n        }\n    }\n}\n')),
        "texture_st_constant.usda": stage(textured().replace(
            "float2 inputs:st.connect = </Root/Looks/Paint/Reader.outputs:result>", "float2 inputs:st = (0.5, 0.5)", 1)),
        # ShaderPropertyTypeConformanceChecker: inputs typed unlike the definitions.
        "shader_input_types.usda": stage(textured().replace("color3f inputs:diffuseColor.connect", "float3 inputs:diffuseColor.connect").replace('string inputs:varname', 'token inputs:varname')),
    }
    for name, text in layers.items():
        (HERE / name).write_text(text)

    clean = layers["clean.usda"].encode()
    textures = [("textures/albedo.png", (HERE / "textures" / "albedo.png").read_bytes()),
                ("textures/normal.png", (HERE / "textures" / "normal.png").read_bytes())]
    package(HERE / "clean.usdz", [("clean.usda", clean)] + textures)
    # ByteAlignmentChecker: entries where zip puts them, not on 64-byte boundaries.
    package(HERE / "unaligned.usdz", [("clean.usda", clean)] + textures, align=False)
    # CompressionChecker: a deflated texture (aligned, so only compression is wrong).
    package(HERE / "compressed.usdz", [("clean.usda", clean)] + textures, compress=("textures/albedo.png",))
    # ARKitFileExtensionChecker: a text file and an upper-case extension in the package.
    package(HERE / "stray_files.usdz", [("clean.usda", clean)] + textures
            + [("notes.txt", b"not a layer\n"), ("textures/EXTRA.PNG", textures[0][1])])


if __name__ == "__main__":
    main()
