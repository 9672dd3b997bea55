"""References for the thumbnails: Cycles (path-traced, through the bpy that Scripts/setup-reference-tools
installs) and f3d (PyPI, VTK's PBR on Mesa's OSMesa), each given the same environment and the camera
assetc's automatic iso view would use (the bounding sphere about the farthest vertex from the box's
centre fills the 60-degree field with a 4% margin, seen from (1, 0.75, 1.1) in the Y-up frame), and
NVIDIA's FLIP between pictures. Pictures are composited over one grey by their own alpha before FLIP."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from blender_reference import blender

GREY = 0.5

CYCLES = r'''
import math
from mathutils import Vector
path, out, hdr, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fresh()
extension = path.lower().rsplit(".", 1)[-1]
if extension in ("glb", "gltf"):
    bpy.ops.import_scene.gltf(filepath=path)
elif extension in ("usd", "usda", "usdc", "usdz"):
    bpy.ops.wm.usd_import(filepath=path)
elif extension == "fbx":
    bpy.ops.import_scene.fbx(filepath=path)
else:
    raise SystemExit("no importer for " + path)
scene = bpy.context.scene
depsgraph = bpy.context.evaluated_depsgraph_get()
points = []
for ob in scene.objects:
    if ob.type != "MESH":
        continue
    evaluated = ob.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    points += [ob.matrix_world @ v.co for v in mesh.vertices]
    evaluated.to_mesh_clear()
lo = Vector([min(p[i] for p in points) for i in range(3)])
hi = Vector([max(p[i] for p in points) for i in range(3)])
centre = (lo + hi) / 2
radius = max((p - centre).length for p in points)
distance = radius / math.sin(math.radians(30)) * 1.04
# (1, 0.75, 1.1) in the file's Y-up frame is (1, -1.1, 0.75) in Blender's Z-up one.
position = centre + Vector((1, -1.1, 0.75)).normalized() * distance
camera_data = bpy.data.cameras.new("Camera")
camera_data.sensor_fit = "VERTICAL"
camera_data.angle_y = math.radians(60)
camera_data.clip_start = max(distance - radius * 1.5, distance * 1e-4)
camera_data.clip_end = distance + radius * 1.5
camera = bpy.data.objects.new("Camera", camera_data)
scene.collection.objects.link(camera)
camera.location = position
camera.rotation_euler = (centre - position).to_track_quat("-Z", "Y").to_euler()
scene.camera = camera
world = bpy.data.worlds.new("Environment")
world.use_nodes = True
nodes = world.node_tree.nodes
texture = nodes.new("ShaderNodeTexEnvironment")
texture.image = bpy.data.images.load(hdr)
world.node_tree.links.new(texture.outputs["Color"], nodes["Background"].inputs["Color"])
scene.world = world
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 64
scene.cycles.use_denoising = True
scene.render.resolution_x = scene.render.resolution_y = size
scene.render.resolution_percentage = 100
scene.render.film_transparent = True
scene.view_settings.view_transform = "Standard"
scene.view_settings.look = "None"
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGBA"
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
gltf = lambda v: [v[0], v[2], -v[1]]
answer({"centre": gltf(centre), "position": gltf(position), "radius": radius})
'''

TO_HDR = r'''
source, target = sys.argv[1], sys.argv[2]
image = bpy.data.images.load(source)
width, height = image.size
pixels = list(image.pixels)  # read the EXR's texels in
copy = bpy.data.images.new("copy", width, height, float_buffer=True)
copy.pixels = pixels
copy.file_format = "HDR"
copy.filepath_raw = target
copy.save()
answer(target)
'''

STUDIO_LIGHT = r'''
import os
answer(os.path.join(bpy.utils.resource_path("LOCAL"), "datafiles", "studiolights", "world", sys.argv[1]))
'''


def blender_environment(name, target):
    """One of Blender's own studio-light worlds (linear Rec.709 EXR), written as Radiance .hdr."""
    source = blender(STUDIO_LIGHT, name)
    return blender(TO_HDR, source, target)


def cycles(path, out, hdr, size=256):
    """Renders `path` with Cycles; returns the camera in the glTF (Y-up) frame as Blender framed it."""
    return blender(CYCLES, path, out, hdr, size, timeout=600)


F3D = r'''
import json, sys
import f3d
path, out, hdr, camera, size = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
engine = f3d.Engine.create_osmesa()
options = engine.options
options["render.hdri.file"] = hdr
options["render.hdri.ambient"] = True
options["render.effect.antialiasing.mode"] = "ssaa"
options["render.effect.tone_mapping"] = False
options["scene.up_direction"] = [0.0, 1.0, 0.0]
engine.window.size = (size, size)
engine.scene.add(path)
view = engine.window.camera
view.position = camera["position"]
view.focal_point = camera["centre"]
view.view_up = [0.0, 1.0, 0.0]
view.view_angle = 60.0
engine.window.render_to_image(True).save(out)
'''


def f3d_render(path, out, hdr, camera, size=256):
    """f3d's picture of `path` lit by `hdr` (f3d adds no light kit beside an HDRI; no skybox), from
    `camera`. In a process of its own: the f3d wheel's libraries want OpenSSL 3.2, and a process that
    has already loaded the system's OpenSSL 3.0 (Python's ssl module) cannot load them."""
    result = subprocess.run([sys.executable, "-c", F3D, str(path), str(out), str(hdr), json.dumps(camera), str(size)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and Path(out).exists(), f"f3d failed ({result.returncode}): {result.stderr[-2000:]}"


def composited(path):
    """An RGBA PNG over GREY, as sRGB floats in [0, 1]."""
    image = np.asarray(Image.open(path).convert("RGBA"), np.float32) / 255
    rgb, alpha = image[..., :3], image[..., 3:]
    return rgb * alpha + GREY * (1 - alpha)


def flip(reference, test):
    import flip_evaluator
    _, mean, _ = flip_evaluator.evaluate(composited(reference), composited(test), "LDR")
    return float(mean)


def coverage(path):
    return float((np.asarray(Image.open(path).convert("RGBA"))[..., 3] > 127).mean())
