"""A MaterialX document written with MaterialX's own Python API (PyPI `MaterialX`, 1.39), and a usda that
references its materials as layers the way the usd-wg TextureCoordinateTestMaterialX asset does
(`references = @./materials.mtlx@</MaterialX/Materials/...>`), authored with usd-core's Sdf API:

- M_brick: standard_surface, base_color from a nodegraph (image of textures/checker.png over texcoord),
  specular_roughness 0.6, metalness 0.1.
- M_tile: gltf_pbr, base_color (0.2, 0.4, 0.8), metallic 0, roughness 0.35, emissive (1, 1, 0) at strength 2.
Run: python3 Tests/Fixtures/materialx/make_mtlx_document.py (pip install MaterialX usd-core)."""
import os

import MaterialX as mx
from pxr import Sdf

HERE = os.path.dirname(os.path.abspath(__file__))

doc = mx.createDocument()
graph = doc.addNodeGraph("NG_brick")
uv = graph.addNode("texcoord", "uv", "vector2")
image = graph.addNode("image", "albedo", "color3")
file_input = image.addInput("file", "filename")
file_input.setValueString("textures/checker.png")
file_input.setColorSpace("srgb_texture")
image.addInput("texcoord", "vector2").setConnectedNode(uv)
graph.addOutput("base_out", "color3").setConnectedNode(image)

brick = doc.addNode("standard_surface", "SR_brick", "surfaceshader")
base = brick.addInput("base_color", "color3")
base.setNodeGraphString("NG_brick")
base.setOutputString("base_out")
brick.addInput("specular_roughness", "float").setValue(0.6)
brick.addInput("metalness", "float").setValue(0.1)
doc.addMaterialNode("M_brick", brick)

tile = doc.addNode("gltf_pbr", "SR_tile", "surfaceshader")
tile.addInput("base_color", "color3").setValue(mx.Color3(0.2, 0.4, 0.8))
tile.addInput("metallic", "float").setValue(0.0)
tile.addInput("roughness", "float").setValue(0.35)
tile.addInput("emissive", "color3").setValue(mx.Color3(1, 1, 0))
tile.addInput("emissive_strength", "float").setValue(2.0)
doc.addMaterialNode("M_tile", tile)

valid, message = doc.validate()
assert valid, message
mx.writeToXmlFile(doc, os.path.join(HERE, "materials.mtlx"))

layer = Sdf.Layer.CreateNew(os.path.join(HERE, "mtlx_reference.usda"))
layer.defaultPrim = "Root"
layer.pseudoRoot.SetInfo("upAxis", "Y")
layer.pseudoRoot.SetInfo("metersPerUnit", 1.0)
root = Sdf.PrimSpec(layer, "Root", Sdf.SpecifierDef, "Xform")
looks = Sdf.PrimSpec(root, "Looks", Sdf.SpecifierDef, "Scope")
for k, name in enumerate(("M_brick", "M_tile")):
    material = Sdf.PrimSpec(looks, name, Sdf.SpecifierDef, "Material")
    material.referenceList.Prepend(Sdf.Reference("./materials.mtlx", f"/MaterialX/Materials/{name}"))
    mesh = Sdf.PrimSpec(root, f"Quad{k}", Sdf.SpecifierDef, "Mesh")
    mesh.SetInfo("apiSchemas", Sdf.TokenListOp.Create(prependedItems=["MaterialBindingAPI"]))
    for attr_name, type_name, value in (("points", Sdf.ValueTypeNames.Point3fArray, [(2 * k, 0, 0), (2 * k + 1, 0, 0), (2 * k + 1, 1, 0), (2 * k, 1, 0)]),
                                        ("faceVertexCounts", Sdf.ValueTypeNames.IntArray, [4]),
                                        ("faceVertexIndices", Sdf.ValueTypeNames.IntArray, [0, 1, 2, 3]),
                                        ("primvars:st", Sdf.ValueTypeNames.TexCoord2fArray, [(0, 0), (1, 0), (1, 1), (0, 1)])):
        attr = Sdf.AttributeSpec(mesh, attr_name, type_name)
        attr.default = value
        if attr_name == "primvars:st":
            attr.SetInfo("interpolation", "vertex")
    binding = Sdf.RelationshipSpec(mesh, "material:binding")
    binding.targetPathList.Prepend(Sdf.Path(f"/Root/Looks/{name}"))
layer.Save()
