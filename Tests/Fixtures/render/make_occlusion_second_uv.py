#!/usr/bin/env python3
"""Writes occlusion_second_uv.glb with Blender (bpy), as Blender-IO's 12_orm_two_uvmaps is made: a
cube with two UV maps, its base colour a checker on the first ("UVMap"), and one ORM texture read
twice: roughness and metallic (green, blue) on the first map, occlusion (red, through the exporter's
"glTF Material Output" group) on the second ("AO"), which Blender exports as one texture referenced
by metallicRoughnessTexture with texCoord 0 and occlusionTexture with texCoord 1. The red channel is
a fine dark-and-white checker but for a white block on the right; the second map puts every face
inside the block, the first across the checker, so a reader that samples occlusion with the first
set darkens half of every face. Run with the bpy that
Scripts/setup-reference-tools installs: .build/reference/blender/bin/python Tests/Fixtures/render/make_occlusion_second_uv.py"""
import os
import sys

import bpy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "occlusion_second_uv.glb")


def image(name, pixels):
    height, width = pixels.shape[:2]
    made = bpy.data.images.new(name, width, height, alpha=True)
    made.pixels.foreach_set(np.flipud(pixels).astype(np.float32).ravel())
    made.pack()
    return made


def main():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.mesh.primitive_cube_add(size=1.0)
    cube = bpy.context.object
    cube.rotation_euler = (0.5, 0.6, 0.1)
    mesh = cube.data
    mesh.uv_layers[0].name = "UVMap"
    mesh.uv_layers.new(name="AO")
    # Adding a layer moves the layers' data: both are looked up again after it.
    first, second = mesh.uv_layers["UVMap"], mesh.uv_layers["AO"]
    # Every face the whole square on the first map, and the block at u 0.6..0.9, v 0.1..0.9 on the second.
    for polygon in mesh.polygons:
        for corner, loop in enumerate(polygon.loop_indices):
            u, v = ((0, 0), (1, 0), (1, 1), (0, 1))[corner % 4]
            first.data[loop].uv = (u, v)
            second.data[loop].uv = (0.6 + 0.3 * u, 0.1 + 0.8 * v)
    checker = (np.indices((64, 64)) // 16).sum(0) % 2
    colour = np.dstack([0.2 + 0.6 * checker, 0.3 + 0.3 * checker, 0.8 - 0.5 * checker, np.ones((64, 64))])
    orm = np.ones((64, 64, 4))
    orm[..., 0] = np.where((np.indices((64, 64)) // 4).sum(0) % 2, 0.1, 1.0)
    orm[4:60, 36:60, 0] = 1.0
    orm[..., 1] = 0.6
    orm[..., 2] = 0.0

    material = bpy.data.materials.new("ORM")
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    bsdf = nodes["Principled BSDF"]
    base = nodes.new("ShaderNodeTexImage")
    base.image = image("checker", colour)
    uv0 = nodes.new("ShaderNodeUVMap")
    uv0.uv_map = "UVMap"
    links.new(uv0.outputs["UV"], base.inputs["Vector"])
    links.new(base.outputs["Color"], bsdf.inputs["Base Color"])

    packed = image("orm", orm)
    packed.colorspace_settings.name = "Non-Color"
    for uv_map, outputs in (("UVMap", (("Green", bsdf.inputs["Roughness"]), ("Blue", bsdf.inputs["Metallic"]))), ("AO", None)):
        texture = nodes.new("ShaderNodeTexImage")
        texture.image = packed
        uv = nodes.new("ShaderNodeUVMap")
        uv.uv_map = uv_map
        links.new(uv.outputs["UV"], texture.inputs["Vector"])
        separate = nodes.new("ShaderNodeSeparateColor")
        links.new(texture.outputs["Color"], separate.inputs["Color"])
        if outputs:
            for channel, socket in outputs:
                links.new(separate.outputs[channel], socket)
        else:
            group = bpy.data.node_groups.new("glTF Material Output", "ShaderNodeTree")
            group.interface.new_socket("Occlusion", in_out="INPUT", socket_type="NodeSocketFloat")
            output = nodes.new("ShaderNodeGroup")
            output.node_tree = group
            links.new(separate.outputs["Red"], output.inputs["Occlusion"])
    mesh.materials.append(material)

    bpy.ops.export_scene.gltf(filepath=OUT, export_format="GLB")


if __name__ == "__main__":
    main()
