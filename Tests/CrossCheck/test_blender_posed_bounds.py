"""Posed bounds against Blender's evaluated scene: Blender imports a glTF fixture (its own glTF importer) or the
usdz assetc makes from a Collada fixture (its USD importer), sets the frame, and the world bounds of its
evaluated meshes (turned from Blender's Z up back to Y up) equal what `assetc info --time` gives."""
import json
import subprocess

import numpy
import pytest

from blender_reference import blender
from conftest import FIXTURES, assetc_binary, run_assetc

ANIM = FIXTURES / "anim"
TIMES = [0.0, 0.5, 1.0, 1.5, 2.0]

EVALUATE = '''
importer, path = sys.argv[1], sys.argv[2]
times = [float(t) for t in sys.argv[3:]]
fresh()
if importer == "gltf":
    bpy.ops.import_scene.gltf(filepath=path)
else:
    bpy.ops.wm.usd_import(filepath=path)
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
found = []
for seconds in times:
    frame = seconds * fps
    scene.frame_set(int(frame), subframe=frame - int(frame))
    graph = bpy.context.evaluated_depsgraph_get()
    low, high = [1e30] * 3, [-1e30] * 3
    for obj in scene.objects:
        if obj.type != "MESH" or any(c.name == "glTF_not_exported" for c in obj.users_collection):
            continue
        evaluated = obj.evaluated_get(graph)
        mesh = evaluated.to_mesh()
        for v in mesh.vertices:
            w = evaluated.matrix_world @ v.co
            # Blender is Z up; both importers turned Y up into it: (x, y, z) came from (x, -z, y).
            p = (w[0], w[2], -w[1])
            low = [min(a, b) for a, b in zip(low, p)]
            high = [max(a, b) for a, b in zip(high, p)]
        evaluated.to_mesh_clear()
    found.append({"min": low, "max": high})
answer(found)
'''


def assetc_bounds(path, seconds):
    result = run_assetc("info", "--json", "--time", str(seconds), str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["bounds"]


def compare(path, importer, times, tolerance=2e-3):
    seen = blender(EVALUATE, importer, path, *times)
    for seconds, theirs in zip(times, seen):
        mine = assetc_bounds(path, seconds)
        for corner in ("min", "max"):
            assert numpy.allclose(mine[corner], theirs[corner], atol=tolerance), f"{path.name} at {seconds} s: {mine} vs Blender {theirs}"


@pytest.mark.parametrize("name", ["animated_cube.glb", "simple_skin.gltf", "morph_quad.gltf"])
def test_gltf_poses_as_blender_evaluates_it(name):
    compare(ANIM / name, "gltf", TIMES)


@pytest.mark.parametrize("name", ["collada_channels/component_targets.dae", "collada_channels/nested.dae", "skinned_arm.dae"])
def test_collada_derived_usdz_poses_as_blender_evaluates_it(name, tmp_path):
    out = tmp_path / (name.replace("/", "_").replace(".dae", ".usdz"))
    result = subprocess.run([assetc_binary(), "convert", "--force", str(ANIM / name), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    compare(out, "usd", TIMES)
    # The usdz poses as its source does: the chain from the XML through assetc to Blender closes.
    for seconds in TIMES:
        assert numpy.allclose(assetc_bounds(out, seconds)["min"], assetc_bounds(ANIM / name, seconds)["min"], atol=2e-3)
