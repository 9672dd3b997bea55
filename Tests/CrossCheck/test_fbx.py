"""FBX reading (issue 36), judged by Blender's own importer and by assimp.

The Blender-made fixtures (Tests/Fixtures/fbx/make_fbx_fixtures.py, Blender's FBX exporter): each
file's triangles, world bounds in metres Y up, joints, blend shapes and clip length agree with what
`bpy.ops.import_scene.fbx` makes of it, and the posed bounds at two times with Blender's evaluated
meshes at the same frames. Every fixture, the hand-written ASCII ones included, has the polygons and
the world positions assimp reads (`assimp export`, its own polygons; with -ptv, its world
transforms). Each Blender fixture converts to usdz that passes usd-core's ARKit checks and that
Blender reads back with the same triangles and bounds, and to glb with the same skins and clips."""
import json
import subprocess
from collections import Counter

import numpy as np
import pygltflib
import pytest

import arkit_checker
from blender_reference import blender
from conftest import FIXTURES, run_assetc

FOLDER = FIXTURES / "fbx"
BLENDER_MADE = ["props", "skinned", "shapes", "zup_cm"]
HAND_WRITTEN = ["ascii/transforms", "ascii/layers"]  # v61.fbx: assimp reads no FBX before 2011

IMPORT = '''
fresh()
path, frames = sys.argv[1], json.loads(sys.argv[2])
kind = path.rsplit(".", 1)[1].lower()
if kind == "fbx":
    bpy.ops.import_scene.fbx(filepath=path)
elif kind == "glb":
    bpy.ops.import_scene.gltf(filepath=path)
else:
    bpy.ops.wm.usd_import(filepath=path)
scene = bpy.context.scene
def measure():
    depsgraph = bpy.context.evaluated_depsgraph_get()
    triangles, low, high = 0, [1e18] * 3, [-1e18] * 3
    for o in scene.objects:
        if o.type != "MESH":
            continue
        evaluated = o.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        mesh.calc_loop_triangles()
        triangles += len(mesh.loop_triangles)
        for v in mesh.vertices:
            w = evaluated.matrix_world @ v.co
            p = (w.x, w.z, -w.y)  # Blender's Z up to Y up
            low = [min(a, b) for a, b in zip(low, p)]
            high = [max(a, b) for a, b in zip(high, p)]
        evaluated.to_mesh_clear()
    return {"triangles": triangles, "low": low, "high": high}
out = {"rest": measure(), "joints": 0, "shapes": 0, "clip": None, "posed": []}
for o in scene.objects:
    if o.type == "ARMATURE":
        out["joints"] += len(o.data.bones)
    if o.type == "MESH" and o.data.shape_keys:
        out["shapes"] += len(o.data.shape_keys.key_blocks) - 1
fps = scene.render.fps / scene.render.fps_base
for action in bpy.data.actions:
    a, b = action.frame_range
    out["clip"] = max(out["clip"] or 0, (b - a) / fps)
for frame in frames:
    scene.frame_set(int(frame), subframe=frame - int(frame))
    out["posed"].append(measure())
answer(out)
'''


def info(path, *extra):
    result = run_assetc("info", "--json", *extra, str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def y_up_metres(record):
    """assetc's world bounds in metres, turned to Y up as Blender's answer is."""
    low, high = record["boundsInMeters"]["min"], record["boundsInMeters"]["max"]
    if record["upAxis"] == "Z":
        low, high = [low[0], low[2], -high[1]], [high[0], high[2], -low[1]]
    return low, high


def assert_box(ours, theirs, what):
    size = max(max(h - l for l, h in zip(theirs["low"], theirs["high"])), 1e-6)
    for k in range(3):
        assert abs(ours[0][k] - theirs["low"][k]) <= 1e-4 * size + 1e-6, (what, ours, theirs)
        assert abs(ours[1][k] - theirs["high"][k]) <= 1e-4 * size + 1e-6, (what, ours, theirs)


@pytest.mark.parametrize("name", BLENDER_MADE)
def test_blender_made_files_read_as_blender_reads_them(name):
    path = FOLDER / f"{name}.fbx"
    ours = info(path)
    assert ours["warnings"] == [], ours["warnings"]
    clip = max((c["end"] - c["start"] for c in ours["clips"]), default=None)
    # Whole frames (24 a second, as the fixtures are made), where both sides sample Blender's baked
    # keys; Blender's importer puts FBX time 0 at the scene's first frame, 1.
    start = min((c["start"] for c in ours["clips"]), default=0)
    frames = [1 + round((start + clip * f) * 24) for f in (0.3, 0.6)] if clip else []
    times = [(frame - 1) / 24 for frame in frames]
    theirs = blender(IMPORT, path, json.dumps(frames))
    assert ours["triangles"] == theirs["rest"]["triangles"]
    assert_box(y_up_metres(ours), theirs["rest"], "rest")
    assert ours["joints"] == theirs["joints"]
    assert ours["blendShapes"] == theirs["shapes"]
    if theirs["clip"] is None:
        assert clip is None
    else:
        assert abs(clip - theirs["clip"]) < 1e-6, (clip, theirs["clip"])
    for t, posed in zip(times, theirs["posed"]):
        assert_box(y_up_metres(info(path, "--time", str(t))), posed, f"posed at {t} s")


def usd_core_bounds(path, time_code):
    """The stage's world box in metres, Y up, after usd-core's UsdSkel bakes its skinning."""
    from pxr import Usd, UsdGeom, UsdSkel
    stage = Usd.Stage.Open(str(path))
    stage = Usd.Stage.Open(stage.Flatten())  # a package opens read-only; baking writes into a copy
    UsdSkel.BakeSkinning(stage.Traverse())
    time, xforms = Usd.TimeCode(time_code), UsdGeom.XformCache(Usd.TimeCode(time_code))
    points = []
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh):
            world = xforms.GetLocalToWorldTransform(prim)
            points += [world.Transform(p) for p in UsdGeom.Mesh(prim).GetPointsAttr().Get(time)]
    scale = UsdGeom.GetStageMetersPerUnit(stage)
    low, high = [min(p[k] for p in points) * scale for k in range(3)], [max(p[k] for p in points) * scale for k in range(3)]
    if UsdGeom.GetStageUpAxis(stage) == "Z":
        low, high = [low[0], low[2], -high[1]], [high[0], high[2], -low[1]]
    return {"low": low, "high": high}


def obj_polygons_and_points(path):
    faces, points = [], []
    for line in open(path):
        if line.startswith("v "):
            points.append([float(x) for x in line.split()[1:4]])
        elif line.startswith("f "):
            faces.append(len(line.split()) - 1)
    return faces, np.array(points)


@pytest.mark.parametrize("name", BLENDER_MADE + HAND_WRITTEN)
def test_polygons_and_world_points_agree_with_assimp(name, tmp_path):
    path = FOLDER / f"{name}.fbx"
    subprocess.run(["assimp", "export", str(path), str(tmp_path / "raw.obj")], check=True, capture_output=True)
    subprocess.run(["assimp", "export", str(path), str(tmp_path / "world.obj"), "-ptv"], check=True, capture_output=True)
    assert run_assetc("convert", str(path), str(tmp_path / "ours.obj")).returncode == 0
    their_faces, _ = obj_polygons_and_points(tmp_path / "raw.obj")
    _, their_points = obj_polygons_and_points(tmp_path / "world.obj")
    our_faces, our_points = obj_polygons_and_points(tmp_path / "ours.obj")
    assert Counter(our_faces) == Counter(their_faces)
    assert info(path)["triangles"] == sum(n - 2 for n in their_faces)
    # Every world position, as a set: assimp splits points per corner, assetc keeps them shared.
    scale = max(np.abs(their_points).max(), 1)
    ours = {tuple(np.round(p / scale, 4)) for p in our_points}
    theirs = {tuple(np.round(p / scale, 4)) for p in their_points}
    assert ours == theirs, (len(ours ^ theirs), sorted(ours ^ theirs)[:6])


@pytest.mark.parametrize("name", BLENDER_MADE)
def test_converts_to_usdz_and_glb_that_read_back_alike(name, tmp_path):
    path = FOLDER / f"{name}.fbx"
    ours = info(path)
    usdz, glb = tmp_path / f"{name}.usdz", tmp_path / f"{name}.glb"
    assert run_assetc("convert", str(path), str(usdz)).returncode == 0
    assert run_assetc("convert", str(path), str(glb)).returncode == 0
    checked = arkit_checker.check(usdz)
    assert checked["errors"] == [] and checked["failed"] == [], checked
    # Blender's USD importer shows time code t at frame t, and opens at frame 1: 1/24 s here.
    theirs = blender(IMPORT, usdz, "[]")
    expected = info(path, "--time", str(1 / 24)) if ours["clips"] else ours
    assert theirs["rest"]["triangles"] == ours["triangles"]
    # usd-core's own skinning judges every package; Blender's importer the ones without blend
    # shapes (it leaves out the joint a shape-only mesh is bound to, which usd-core applies).
    assert_box(y_up_metres(expected), usd_core_bounds(usdz, 1), usdz.name + " (usd-core)")
    if not ours["blendShapes"]:
        assert_box(y_up_metres(expected), theirs["rest"], usdz.name)
    # Blender's glTF importer adds shapes for bones, so the glb is judged by its skins and clips.
    theirs = blender(IMPORT, glb, "[]")
    assert theirs["joints"] == ours["joints"] and theirs["shapes"] == ours["blendShapes"]
    clip = max((c["end"] - c["start"] for c in ours["clips"]), default=None)
    assert (theirs["clip"] is None) == (clip is None) and (clip is None or abs(theirs["clip"] - clip) < 1e-6), (theirs["clip"], clip)
    document = pygltflib.GLTF2().load(str(glb))
    assert len(document.skins) == (1 if ours["joints"] else 0)
    assert len(document.animations) == len(ours["clips"])
    back = info(glb)
    assert (back["joints"], back["blendShapes"], len(back["clips"])) == (ours["joints"], ours["blendShapes"], len(ours["clips"]))


def test_every_stack_is_a_clip_with_its_own_span():
    """stacks.fbx: nine animation stacks (three actions on three boxes, Blender's exporter with
    bake_anim_use_all_actions), each read as a clip with its own span, as Blender's importer makes
    one action of each, and as assimp counts them."""
    ours = info(FOLDER / "stacks.fbx")
    theirs = blender('''
fresh()
bpy.ops.import_scene.fbx(filepath=sys.argv[1])
fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
answer(sorted([a.name.split("|", 1)[1], (a.frame_range[0] - 1) / fps, (a.frame_range[1] - 1) / fps] for a in bpy.data.actions))
''', FOLDER / "stacks.fbx")
    clips = sorted([c["name"], c["start"], c["end"]] for c in ours["clips"])
    assert len(clips) == len(theirs) == 9
    for (name, start, end), (their_name, their_start, their_end) in zip(clips, theirs):
        assert name == their_name and abs(start - their_start) < 1e-6 and abs(end - their_end) < 1e-6, (clips, theirs)
    assert ours["animatedNodes"] == 3
    counted = subprocess.run(["assimp", "info", str(FOLDER / "stacks.fbx")], capture_output=True, text=True).stdout
    assert "Animations:         9" in counted
