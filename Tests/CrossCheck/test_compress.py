"""Mesh compression on glTF output (issue 39: `--compress meshopt|draco`) of a Blender-made skinned,
shape-keyed model: each output passes assetc's Khronos-code validation, requires its extension, is
smaller than the plain GLB, and reads back with the same triangles, joints, blend shapes and clip, with
bounds equal within the quantization asked; Blender's importer reads the Draco one with the same
triangles and bounds, and meshopt with every bit kept is exact."""
import json

import pygltflib
import pytest

from blender_reference import blender
from conftest import run_assetc

MODEL = '''
fresh()
out = sys.argv[1]
bpy.ops.mesh.primitive_grid_add(x_subdivisions=40, y_subdivisions=40, size=2)
grid = bpy.context.object
grid.data.uv_layers.new(name="UVMap")
grid.shape_key_add(name="Basis")
lift = grid.shape_key_add(name="Lift")
for point in lift.data:
    point.co.z += 0.2 * point.co.x
rig = rig_with_two_bones(grid, (0, 0, 0))
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="POSE")
tip = rig.pose.bones["Tip"]
tip.rotation_mode = "XYZ"
for frame, angle in ((1, 0.0), (24, 0.8)):
    tip.rotation_euler = (angle, 0, 0)
    tip.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
bpy.ops.export_scene.gltf(filepath=out + "/model.glb", export_format="GLB", export_skins=True, export_morph=True, export_animations=True)
answer("ok")
'''

IMPORT = '''
fresh()
bpy.ops.import_scene.gltf(filepath=sys.argv[1])
triangles, low, high = 0, [1e9] * 3, [-1e9] * 3
from mathutils import Vector
for o in bpy.context.scene.objects:
    if o.type != "MESH":
        continue
    o.data.calc_loop_triangles()
    triangles += len(o.data.loop_triangles)
    for v in o.data.vertices:
        w = o.matrix_world @ v.co
        low = [min(a, b) for a, b in zip(low, w)]
        high = [max(a, b) for a, b in zip(high, w)]
answer({"triangles": triangles, "low": low, "high": high})
'''


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compress")
    assert blender(MODEL, folder) == "ok"
    return folder / "model.glb"


def info(path):
    result = run_assetc("info", "--json", str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def close_bounds(a, b, tolerance):
    return all(abs(x - y) <= tolerance for x, y in zip(a["bounds"]["min"] + a["bounds"]["max"], b["bounds"]["min"] + b["bounds"]["max"]))


@pytest.mark.parametrize("codec, extension", [("meshopt", "EXT_meshopt_compression"), ("draco", "KHR_draco_mesh_compression")])
def test_compressed_output_reads_back_as_the_plain_one(model, tmp_path, codec, extension):
    plain, packed = tmp_path / "plain.glb", tmp_path / f"{codec}.glb"
    assert run_assetc("convert", str(model), str(plain)).returncode == 0
    result = run_assetc("convert", str(model), str(packed), "--compress", codec)
    assert result.returncode == 0, result.stderr
    verdict = run_assetc("validate", str(packed), "--json")
    report = json.loads(verdict.stdout)
    assert verdict.returncode == 0 and report["errors"] == 0, verdict.stdout
    # Compression adds no finding to what the plain file has (Blender's rig gives a skinned child node).
    plain_rules = [f["rule"] for f in json.loads(run_assetc("validate", str(plain), "--json").stdout)["files"][0]["findings"]]
    assert [f["rule"] for f in report["files"][0]["findings"]] == plain_rules
    document = pygltflib.GLTF2().load(str(packed))
    assert extension in document.extensionsRequired and extension in document.extensionsUsed
    assert packed.stat().st_size < plain.stat().st_size
    a, b = info(plain), info(packed)
    for key in ("triangles", "joints", "blendShapes", "skinnedMeshes"):
        assert a[key] == b[key], (key, a[key], b[key])
    assert [(c["start"], c["end"]) for c in a["clips"]] == [(c["start"], c["end"]) for c in b["clips"]]
    # Meshopt keeps 16 bits of mantissa by default and Draco quantizes to 14 bits over the 2 m grid.
    assert close_bounds(a, b, 2.5 / (1 << 13)), (a["bounds"], b["bounds"])


def test_meshopt_with_every_bit_kept_is_exact(model, tmp_path):
    # Neither gltfpack (it refuses compressed input) nor Blender 5.0's importer reads
    # EXT_meshopt_compression, so the decoding here is assetc's, through libmeshoptimizer's own decoder.
    packed, plain = tmp_path / "m.glb", tmp_path / "plain.glb"
    assert run_assetc("convert", str(model), str(packed), "--compress", "meshopt", "--position-bits", "23", "--attribute-bits", "23").returncode == 0
    assert run_assetc("convert", str(model), str(plain)).returncode == 0
    document = pygltflib.GLTF2().load(str(packed))
    assert all(view.extensions["EXT_meshopt_compression"].get("filter") is None for view in document.bufferViews if view.extensions)
    assert info(packed)["bounds"] == info(plain)["bounds"]


def test_blender_imports_the_draco_file_as_the_plain_one(model, tmp_path):
    packed, plain = tmp_path / "d.glb", tmp_path / "plain.glb"
    assert run_assetc("convert", str(model), str(packed), "--compress", "draco").returncode == 0
    assert run_assetc("convert", str(model), str(plain)).returncode == 0
    # Blender's importer adds its own bone shapes, so its reading of the plain file is the reference.
    theirs, reference = blender(IMPORT, packed), blender(IMPORT, plain)
    assert theirs["triangles"] == reference["triangles"]
    for k in range(3):
        assert abs(theirs["low"][k] - reference["low"][k]) < 1e-3 and abs(theirs["high"][k] - reference["high"][k]) < 1e-3
