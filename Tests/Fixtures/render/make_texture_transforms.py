#!/usr/bin/env python3
"""Writes texture_transforms_blender.glb with Blender (bpy), as Blender-IO's 09_texture_transform is made: four
tiles in a square, each sampling one lopsided picture (a red corner, a green bar, a blue dot, so a turn or a
mirror shows) through a Mapping node that Blender's exporter writes as KHR_texture_transform: an offset, a
rotation, an uneven scale, and a rotation with scale on the tile's second UV map (texCoord 1). Run with the bpy
that Scripts/setup-reference-tools installs:
.build/reference/blender/bin/python Tests/Fixtures/render/make_texture_transforms.py"""
import math
import os
import sys

import bpy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "texture_transforms_blender.glb")

# (name, location, rotation about z in degrees, scale, UV map)
TILES = [("offset", (0.25, 0.1, 0), 0, (1, 1, 1), "UVMap"),
         ("rotation", (0, 0, 0), 30, (1, 1, 1), "UVMap"),
         ("scale", (0, 0, 0), 0, (2, 0.5, 1), "UVMap"),
         ("second_set", (0.1, -0.2, 0), -50, (1.5, 1.5, 1), "Second")]


def picture():
    size = 64
    y, x = np.mgrid[0:size, 0:size] / size
    rgb = np.stack([0.85 - 0.5 * y, 0.8 - 0.3 * x, 0.7 + 0 * x], -1)
    rgb[(x < 0.3) & (y < 0.3)] = (0.9, 0.1, 0.1)
    rgb[(x > 0.45) & (x < 0.55) & (y > 0.2)] = (0.1, 0.7, 0.2)
    rgb[(x - 0.8) ** 2 + (y - 0.75) ** 2 < 0.01] = (0.1, 0.2, 0.9)
    pixels = np.dstack([rgb, np.ones((size, size))])
    made = bpy.data.images.new("lopsided", size, size, alpha=True)
    made.pixels.foreach_set(np.flipud(pixels).astype(np.float32).ravel())  # Blender's rows run bottom up
    made.pack()
    return made


def main():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    image = picture()
    for k, (name, location, degrees, scale, uv_map) in enumerate(TILES):
        bpy.ops.mesh.primitive_plane_add(size=1.0, location=(1.1 * (k % 2) - 0.55, 0, 0.55 - 1.1 * (k // 2)), rotation=(math.pi / 2, 0, 0))
        tile = bpy.context.object
        tile.name = name
        mesh = tile.data
        mesh.uv_layers[0].name = "UVMap"
        mesh.uv_layers.new(name="Second")
        # Adding a layer moves the layers' data: look both up again. The second map is the first turned a quarter.
        first, second = mesh.uv_layers["UVMap"], mesh.uv_layers["Second"]
        for loop in range(len(first.data)):
            u, v = first.data[loop].uv
            second.data[loop].uv = (1 - v, u)
        material = bpy.data.materials.new(name)
        material.use_nodes = True
        nodes, links = material.node_tree.nodes, material.node_tree.links
        bsdf = nodes["Principled BSDF"]
        bsdf.inputs["Roughness"].default_value = 0.7
        texture = nodes.new("ShaderNodeTexImage")
        texture.image = image
        mapping = nodes.new("ShaderNodeMapping")
        mapping.inputs["Location"].default_value = location
        mapping.inputs["Rotation"].default_value = (0, 0, math.radians(degrees))
        mapping.inputs["Scale"].default_value = scale
        uv = nodes.new("ShaderNodeUVMap")
        uv.uv_map = uv_map
        links.new(uv.outputs["UV"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], texture.inputs["Vector"])
        links.new(texture.outputs["Color"], bsdf.inputs["Base Color"])
        mesh.materials.append(material)
    bpy.ops.export_scene.gltf(filepath=OUT, export_format="GLB")


if __name__ == "__main__":
    main()
