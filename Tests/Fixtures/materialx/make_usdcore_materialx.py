"""MaterialX networks written with usd-core's UsdShade API (as Houdini, Maya and guc lay them out), each on one
quad with `st` coordinates, beside the Blender-made files:

- standard_surface.usda: ND_standard_surface_surfaceshader; base_color from a NodeGraph of ND_image_color3
  reading textures/checker.png through ND_place2d_vector2 (scale 0.5, rotate 90, offset (0.25, 0)) over
  ND_texcoord_vector2; metalness 0.25, specular_roughness 0.4, coat 0.5 with coat_roughness 0.2, emission 2
  of emission_color (0, 0.5, 0).
- gltf_pbr.usda: ND_gltf_pbr_surfaceshader as guc writes it: base_color from ND_gltf_image_color3 (factor
  (1, 0.5, 0.5)), metallic and roughness the blue and green of one ND_gltf_image_vector3 through
  ND_extract_vector3, normal from ND_gltf_normalmap_vector3, emissive (1, 0.5, 0) at emissive_strength 3,
  transmission 0.4.
- referenced_graph.usda: an ND_open_pbr_surface whose base_color comes from a NodeGraph defined in
  referenced_graph_layer.usda and reached through a reference.
- graph_nodes.usda: the routing nodes on an open_pbr surface: base_color from ND_tiledimage_color3 (uvtiling
  (2, 2)) through ND_multiply_color3FA by 0.5 and ND_mix_color3 at mix 1; specular_roughness the red of
  textures/orm.png picked by ND_swizzle_color3_float ("r"); emission_color from ND_combine3_color3 of constants;
  coat_weight from ND_convert_float_color3 of a constant 0.3 through ND_extract_color3; a second material whose
  base_color image is tagged lin_rec709.
- realitykit.usda: ND_realitykit_pbr_surfaceshader (baseColor from ND_image_color3, metallic 0.5, roughness 0.2,
  emissiveColor (0.1, 0.2, 0.3)) and ND_UsdPreviewSurface_surfaceshader (diffuseColor (0.3, 0.6, 0.9),
  roughness 0.8, opacity 0.5).
- procedural.usda: ND_noise2d_color3 into an open_pbr base_color (assetc maps no noise: default and a warning).
- hostile_graphs.usda: graphs that loop, name a missing node, use an unknown node definition, nest 200 deep,
  and fan out 30 levels of diamonds (2^30 paths through 31 nodes).
Run: python3 Tests/Fixtures/materialx/make_usdcore_materialx.py (usd-core from PyPI)."""
import os

from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade

HERE = os.path.dirname(os.path.abspath(__file__))


def stage(name):
    s = Usd.Stage.CreateNew(os.path.join(HERE, name))
    UsdGeom.SetStageUpAxis(s, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(s, 1)
    root = UsdGeom.Xform.Define(s, "/Root")
    s.SetDefaultPrim(root.GetPrim())
    return s


def quad(s, path, material):
    mesh = UsdGeom.Mesh.Define(s, path)
    mesh.CreatePointsAttr([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)])
    mesh.CreateFaceVertexCountsAttr([4])
    mesh.CreateFaceVertexIndicesAttr([0, 1, 2, 3])
    mesh.CreateExtentAttr([(0, 0, 0), (1, 1, 0)])
    st = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.vertex)
    st.Set([(0, 0), (1, 0), (1, 1), (0, 1)])
    UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(material)


def shader(s, path, node_id):
    node = UsdShade.Shader.Define(s, path)
    node.CreateIdAttr(node_id)
    return node


def material(s, path, surface_id):
    m = UsdShade.Material.Define(s, path)
    surface = shader(s, path + "/Surface", surface_id)
    m.CreateSurfaceOutput("mtlx").ConnectToSource(surface.ConnectableAPI(), "out")
    return m, surface


def standard_surface():
    s = stage("standard_surface.usda")
    m, surface = material(s, "/Root/Looks/Brushed", "ND_standard_surface_surfaceshader")
    graph = UsdShade.NodeGraph.Define(s, "/Root/Looks/Brushed/Graph")
    uv = shader(s, "/Root/Looks/Brushed/Graph/uv", "ND_texcoord_vector2")
    uv.CreateInput("index", Sdf.ValueTypeNames.Int).Set(0)
    place = shader(s, "/Root/Looks/Brushed/Graph/place", "ND_place2d_vector2")
    place.CreateInput("texcoord", Sdf.ValueTypeNames.Float2).ConnectToSource(uv.ConnectableAPI(), "out")
    place.CreateInput("scale", Sdf.ValueTypeNames.Float2).Set(Gf.Vec2f(0.5, 0.5))
    place.CreateInput("rotate", Sdf.ValueTypeNames.Float).Set(90)
    place.CreateInput("offset", Sdf.ValueTypeNames.Float2).Set(Gf.Vec2f(0.25, 0))
    image = shader(s, "/Root/Looks/Brushed/Graph/albedo", "ND_image_color3")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    image.GetInput("file").GetAttr().SetColorSpace("srgb_texture")
    image.CreateInput("texcoord", Sdf.ValueTypeNames.Float2).ConnectToSource(place.ConnectableAPI(), "out")
    out = graph.CreateOutput("albedo", Sdf.ValueTypeNames.Color3f)
    out.ConnectToSource(image.ConnectableAPI(), "out")
    surface.CreateInput("base", Sdf.ValueTypeNames.Float).Set(1.0)
    surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(out)
    surface.CreateInput("metalness", Sdf.ValueTypeNames.Float).Set(0.25)
    surface.CreateInput("specular_roughness", Sdf.ValueTypeNames.Float).Set(0.4)
    surface.CreateInput("coat", Sdf.ValueTypeNames.Float).Set(0.5)
    surface.CreateInput("coat_roughness", Sdf.ValueTypeNames.Float).Set(0.2)
    surface.CreateInput("emission", Sdf.ValueTypeNames.Float).Set(2.0)
    surface.CreateInput("emission_color", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0, 0.5, 0))
    quad(s, "/Root/Quad", m)
    s.Save()


def gltf_pbr():
    s = stage("gltf_pbr.usda")
    m, surface = material(s, "/Root/Looks/Rusty", "ND_gltf_pbr_surfaceshader")
    uv = shader(s, "/Root/Looks/Rusty/uv", "ND_texcoord_vector2")
    albedo = shader(s, "/Root/Looks/Rusty/albedo", "ND_gltf_image_color3")
    albedo.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    albedo.CreateInput("factor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1, 0.5, 0.5))
    albedo.CreateInput("texcoord", Sdf.ValueTypeNames.Float2).ConnectToSource(uv.ConnectableAPI(), "out")
    packed = shader(s, "/Root/Looks/Rusty/packed", "ND_gltf_image_vector3")
    packed.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/orm.png")
    packed.CreateInput("texcoord", Sdf.ValueTypeNames.Float2).ConnectToSource(uv.ConnectableAPI(), "out")
    for name, index in (("metal", 2), ("rough", 1)):
        pick = shader(s, f"/Root/Looks/Rusty/{name}", "ND_extract_vector3")
        pick.CreateInput("in", Sdf.ValueTypeNames.Float3).ConnectToSource(packed.ConnectableAPI(), "out")
        pick.CreateInput("index", Sdf.ValueTypeNames.Int).Set(index)
        surface.CreateInput("metallic" if name == "metal" else "roughness", Sdf.ValueTypeNames.Float).ConnectToSource(pick.ConnectableAPI(), "out")
    bumps = shader(s, "/Root/Looks/Rusty/bumps", "ND_gltf_normalmap_vector3")
    bumps.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/bumps.png")
    bumps.CreateInput("texcoord", Sdf.ValueTypeNames.Float2).ConnectToSource(uv.ConnectableAPI(), "out")
    surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(albedo.ConnectableAPI(), "out")
    surface.CreateInput("normal", Sdf.ValueTypeNames.Float3).ConnectToSource(bumps.ConnectableAPI(), "out")
    surface.CreateInput("emissive", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1, 0.5, 0))
    surface.CreateInput("emissive_strength", Sdf.ValueTypeNames.Float).Set(3.0)
    surface.CreateInput("transmission", Sdf.ValueTypeNames.Float).Set(0.4)
    quad(s, "/Root/Quad", m)
    s.Save()


def referenced_graph():
    layer = stage("referenced_graph_layer.usda")
    graph = UsdShade.NodeGraph.Define(layer, "/Root/Graph")
    image = shader(layer, "/Root/Graph/albedo", "ND_image_color3")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    graph.CreateOutput("albedo", Sdf.ValueTypeNames.Color3f).ConnectToSource(image.ConnectableAPI(), "out")
    layer.Save()
    s = stage("referenced_graph.usda")
    m, surface = material(s, "/Root/Looks/Shared", "ND_open_pbr_surface_surfaceshader")
    used = s.DefinePrim("/Root/Looks/Shared/Graph")
    used.GetReferences().AddReference("./referenced_graph_layer.usda", "/Root/Graph")
    out = UsdShade.NodeGraph(used).GetOutput("albedo") or UsdShade.NodeGraph(used).CreateOutput("albedo", Sdf.ValueTypeNames.Color3f)
    surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(out)
    surface.CreateInput("base_metalness", Sdf.ValueTypeNames.Float).Set(0.0)
    surface.CreateInput("specular_roughness", Sdf.ValueTypeNames.Float).Set(0.7)
    quad(s, "/Root/Quad", m)
    s.Save()


def procedural():
    s = stage("procedural.usda")
    m, surface = material(s, "/Root/Looks/Marble", "ND_open_pbr_surface_surfaceshader")
    noise = shader(s, "/Root/Looks/Marble/noise", "ND_noise2d_color3")
    noise.CreateInput("amplitude", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1, 1, 1))
    surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(noise.ConnectableAPI(), "out")
    surface.CreateInput("specular_roughness", Sdf.ValueTypeNames.Float).Set(0.25)
    quad(s, "/Root/Quad", m)
    s.Save()


def hostile_graphs():
    s = stage("hostile_graphs.usda")
    looks = "/Root/Looks"

    def surface_of(name):
        m, surface = material(s, f"{looks}/{name}", "ND_open_pbr_surface_surfaceshader")
        quad(s, f"/Root/{name}Quad", m)
        return surface

    loop = surface_of("Loop")
    a = shader(s, f"{looks}/Loop/a", "ND_multiply_color3")
    b = shader(s, f"{looks}/Loop/b", "ND_multiply_color3")
    a.CreateInput("in1", Sdf.ValueTypeNames.Color3f).ConnectToSource(b.ConnectableAPI(), "out")
    b.CreateInput("in1", Sdf.ValueTypeNames.Color3f).ConnectToSource(a.ConnectableAPI(), "out")
    loop.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(a.ConnectableAPI(), "out")

    missing = surface_of("Missing")
    missing.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).GetAttr().AddConnection(Sdf.Path(f"{looks}/Missing/nothing.outputs:out"))

    unknown = surface_of("Unknown")
    odd = shader(s, f"{looks}/Unknown/odd", "ND_no_such_node_color3")
    unknown.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(odd.ConnectableAPI(), "out")

    deep = surface_of("Deep")
    previous = None
    for k in range(200):
        node = shader(s, f"{looks}/Deep/n{k}", "ND_dot_color3")
        if previous is not None:
            node.CreateInput("in", Sdf.ValueTypeNames.Color3f).ConnectToSource(previous.ConnectableAPI(), "out")
        else:
            node.CreateInput("in", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.5, 0.5, 0.5))
        previous = node
    deep.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(previous.ConnectableAPI(), "out")

    wide = surface_of("Wide")
    below = shader(s, f"{looks}/Wide/leaf", "ND_constant_color3")
    below.CreateInput("value", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1, 1, 1))
    for k in range(30):  # under the depth bound, so the fan-out is what the node-visit bound stops
        node = shader(s, f"{looks}/Wide/m{k}", "ND_multiply_color3")
        node.CreateInput("in1", Sdf.ValueTypeNames.Color3f).ConnectToSource(below.ConnectableAPI(), "out")
        node.CreateInput("in2", Sdf.ValueTypeNames.Color3f).ConnectToSource(below.ConnectableAPI(), "out")
        below = node
    wide.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(below.ConnectableAPI(), "out")
    s.Save()


def orm_texture():
    """A packed occlusion/roughness/metalness image (glTF's layout: roughness green, metalness blue)."""
    from PIL import Image
    Image.new("RGB", (4, 4), (255, 153, 51)).save(os.path.join(HERE, "textures", "orm.png"))


def graph_nodes():
    s = stage("graph_nodes.usda")
    m, surface = material(s, "/Root/Looks/Routed", "ND_open_pbr_surface_surfaceshader")
    base = "/Root/Looks/Routed"
    tiled = shader(s, base + "/tiled", "ND_tiledimage_color3")
    tiled.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    tiled.CreateInput("uvtiling", Sdf.ValueTypeNames.Float2).Set(Gf.Vec2f(2, 2))
    half = shader(s, base + "/half", "ND_multiply_color3FA")
    half.CreateInput("in1", Sdf.ValueTypeNames.Color3f).ConnectToSource(tiled.ConnectableAPI(), "out")
    half.CreateInput("in2", Sdf.ValueTypeNames.Float).Set(0.5)
    pick = shader(s, base + "/pick", "ND_mix_color3")
    pick.CreateInput("fg", Sdf.ValueTypeNames.Color3f).ConnectToSource(half.ConnectableAPI(), "out")
    pick.CreateInput("bg", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1, 0, 0))
    pick.CreateInput("mix", Sdf.ValueTypeNames.Float).Set(1.0)
    surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(pick.ConnectableAPI(), "out")
    orm = shader(s, base + "/orm", "ND_image_color3")
    orm.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/orm.png")
    red = shader(s, base + "/red", "ND_swizzle_color3_float")
    red.CreateInput("in", Sdf.ValueTypeNames.Color3f).ConnectToSource(orm.ConnectableAPI(), "out")
    red.CreateInput("channels", Sdf.ValueTypeNames.String).Set("r")
    surface.CreateInput("specular_roughness", Sdf.ValueTypeNames.Float).ConnectToSource(red.ConnectableAPI(), "out")
    glow = shader(s, base + "/glow", "ND_combine3_color3")
    for k, value in enumerate((0.1, 0.2, 0.3), 1):
        glow.CreateInput(f"in{k}", Sdf.ValueTypeNames.Float).Set(value)
    surface.CreateInput("emission_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(glow.ConnectableAPI(), "out")
    surface.CreateInput("emission_luminance", Sdf.ValueTypeNames.Float).Set(1.0)
    spread = shader(s, base + "/spread", "ND_convert_float_color3")
    spread.CreateInput("in", Sdf.ValueTypeNames.Float).Set(0.3)
    first = shader(s, base + "/first", "ND_extract_color3")
    first.CreateInput("in", Sdf.ValueTypeNames.Color3f).ConnectToSource(spread.ConnectableAPI(), "out")
    first.CreateInput("index", Sdf.ValueTypeNames.Int).Set(0)
    surface.CreateInput("coat_weight", Sdf.ValueTypeNames.Float).ConnectToSource(first.ConnectableAPI(), "out")
    quad(s, "/Root/Quad", m)
    linear, linear_surface = material(s, "/Root/Looks/Linear", "ND_open_pbr_surface_surfaceshader")
    image = shader(s, "/Root/Looks/Linear/albedo", "ND_image_color3")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    image.GetInput("file").GetAttr().SetColorSpace("lin_rec709")
    linear_surface.CreateInput("base_color", Sdf.ValueTypeNames.Color3f).ConnectToSource(image.ConnectableAPI(), "out")
    quad(s, "/Root/LinearQuad", linear)
    s.Save()


def realitykit():
    s = stage("realitykit.usda")
    m, surface = material(s, "/Root/Looks/Vision", "ND_realitykit_pbr_surfaceshader")
    image = shader(s, "/Root/Looks/Vision/albedo", "ND_image_color3")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set("textures/checker.png")
    surface.CreateInput("baseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(image.ConnectableAPI(), "out")
    surface.CreateInput("metallic", Sdf.ValueTypeNames.Float).Set(0.5)
    surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.2)
    surface.CreateInput("emissiveColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.1, 0.2, 0.3))
    quad(s, "/Root/Quad", m)
    preview, preview_surface = material(s, "/Root/Looks/Preview", "ND_UsdPreviewSurface_surfaceshader")
    preview_surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.3, 0.6, 0.9))
    preview_surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.8)
    preview_surface.CreateInput("opacity", Sdf.ValueTypeNames.Float).Set(0.5)
    quad(s, "/Root/PreviewQuad", preview)
    s.Save()


orm_texture()
graph_nodes()
realitykit()
standard_surface()
gltf_pbr()
referenced_graph()
procedural()
hostile_graphs()
