"""Blender 5's USD exporter writing MaterialX (`wm.usd_export(generate_materialx_network=True)`): five
materials on five spheres (a metal, a textured one, a normal-mapped one, a coated one, an emissive one),
once beside UsdPreviewSurface shaders (blender_materials.usda) and once as MaterialX only
(blender_materialx_only.usda). The textures are small PNGs Blender itself writes into textures/.
test_materialx.py imports build() to ask Blender what each Principled BSDF holds.
Run under the bpy Scripts/setup-reference-tools installs:
  .build/reference/blender/bin/python Tests/Fixtures/materialx/make_blender_materialx.py"""
import os

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))


def image(name, size, pixel):
    """A PNG Blender writes: pixel(x, y) -> (r, g, b, a) in 0..1."""
    img = bpy.data.images.new(name, size, size, alpha=False)
    img.pixels = [c for y in range(size) for x in range(size) for c in pixel(x, y)]
    path = os.path.join(HERE, "textures", name + ".png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.filepath_raw = path
    img.file_format = "PNG"
    img.save()
    return img


def principled(name):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    return material, material.node_tree.nodes["Principled BSDF"], material.node_tree


def build():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    checker = image("checker", 16, lambda x, y: (0.9, 0.2, 0.1, 1) if (x // 4 + y // 4) % 2 else (0.1, 0.3, 0.9, 1))
    bumps = image("bumps", 16, lambda x, y: (0.5 + 0.3 * ((x % 4) - 1.5) / 1.5, 0.5, 1.0, 1))

    materials = []
    metal, bsdf, _ = principled("Metal")
    bsdf.inputs["Base Color"].default_value = (0.9, 0.6, 0.2, 1)
    bsdf.inputs["Metallic"].default_value = 1.0
    bsdf.inputs["Roughness"].default_value = 0.3
    materials.append(metal)

    textured, bsdf, tree = principled("Textured")
    node = tree.nodes.new("ShaderNodeTexImage")
    node.image = checker
    tree.links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = 0.6
    materials.append(textured)

    bumpy, bsdf, tree = principled("NormalMapped")
    bsdf.inputs["Base Color"].default_value = (0.2, 0.7, 0.3, 1)
    node = tree.nodes.new("ShaderNodeTexImage")
    node.image = bumps
    node.image.colorspace_settings.name = "Non-Color"
    normal_map = tree.nodes.new("ShaderNodeNormalMap")
    tree.links.new(node.outputs["Color"], normal_map.inputs["Color"])
    tree.links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
    materials.append(bumpy)

    coated, bsdf, _ = principled("Coated")
    bsdf.inputs["Base Color"].default_value = (0.6, 0.05, 0.05, 1)
    bsdf.inputs["Roughness"].default_value = 0.5
    bsdf.inputs["Coat Weight"].default_value = 1.0
    bsdf.inputs["Coat Roughness"].default_value = 0.05
    materials.append(coated)

    glowing, bsdf, _ = principled("Emissive")
    bsdf.inputs["Base Color"].default_value = (0.05, 0.05, 0.05, 1)
    bsdf.inputs["Emission Color"].default_value = (0.2, 0.9, 1.0, 1)
    bsdf.inputs["Emission Strength"].default_value = 2.0
    materials.append(glowing)

    for k, material in enumerate(materials):
        bpy.ops.mesh.primitive_uv_sphere_add(segments=16, ring_count=8, radius=0.4, location=(k, 0, 0))
        sphere = bpy.context.object
        sphere.name = material.name + "Ball"
        sphere.data.materials.append(material)


if __name__ == "__main__":
    build()
    for name, preview in (("blender_materials.usda", True), ("blender_materialx_only.usda", False)):
        bpy.ops.wm.usd_export(filepath=os.path.join(HERE, name), generate_materialx_network=True, generate_preview_surface=preview,
                              export_textures_mode="KEEP", relative_paths=True)
