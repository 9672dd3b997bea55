"""The FBX writer judged by three independent readers (ufbx, Blender's importer, assimp) over inputs made by the
tools users use: Blender-exported glb files (props with textures, a rig with two clips, shape keys with a
shape-key-only clip), a Z-up centimetre stage written by usd-core, and FBX SDK files from assimp's suite
converted FBX to FBX. Each reader's figures are compared with the source's: triangles exact, bounds in metres
within 1%, materials and base colours, textures with pixels, bones = joints, every vertex weighted with sums of 1,
the bind pose holding every bone, blend-shape channels by name, one stack per clip with its length; the file's
own records give UnitScaleFactor, the axes and the smoothing layer. The bar is 95% of all checks."""
import json
import math
from pathlib import Path

import pygltflib
import pytest
from pxr import Usd, UsdShade

import arkit_checker
import fbx_records
from conftest import FIXTURES, ROOT, assetc_info, run_assetc
from fbx_judges import assimp_view, blender_view, ufbx_view

WRITER = FIXTURES / "fbx" / "writer"
SUITE = ROOT.parent / "shared" / "conformance" / "assimp-fbx" / "test" / "models" / "FBX"
INPUTS = [WRITER / "props.glb", WRITER / "rig.glb", WRITER / "morph.glb", WRITER / "zup_cm.usda",
          SUITE / "animation_with_skeleton.fbx", SUITE / "spider.fbx"]


def convert(*args):
    result = run_assetc("convert", *map(str, args), "--force", timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def y_up(bounds, up):
    """A box in the source's frame turned Y up, as the writer turns Z-up scenes."""
    lo, hi = bounds["min"], bounds["max"]
    if up == "Z":
        return [lo[0], lo[2], -hi[1]], [hi[0], hi[2], -lo[1]]
    return lo, hi


def source_truth(path):
    """The source's figures, each from a reader other than assetc's where one reads the format."""
    info = assetc_info(path)
    lo, hi = y_up(info["boundsInMeters"], info["upAxis"])
    truth = {"triangles": info["triangles"], "min": lo, "max": hi, "materials": info["materials"], "textures": info["textures"],
             "bones": info["joints"], "clips": {c["name"]: c["end"] - c["start"] for c in info["clips"]}, "colors": [], "blendChannels": []}
    if path.suffix == ".glb":
        document = pygltflib.GLTF2().load(str(path))
        truth["colors"] = [m.pbrMetallicRoughness.baseColorFactor[:3] for m in document.materials]
        truth["blendChannels"] = sorted(name for mesh in document.meshes for name in ((mesh.extras or {}).get("targetNames") or []))
    elif path.suffix == ".usda":
        stage = Usd.Stage.Open(str(path))
        for prim in stage.Traverse():
            if prim.IsA(UsdShade.Shader):
                color = UsdShade.Shader(prim).GetInput("diffuseColor")
                if color and color.Get() is not None:
                    truth["colors"].append(list(color.Get()))
    else:
        # An FBX source: each reader is compared with its own reading of the source (per reader, below); the
        # records count the source's LimbNodes, which the output must neither lose nor add to.
        _, root, _ = fbx_records.read(path)
        truth["limbs"] = sum(1 for m in root.find("Objects").all("Model") if m.values[2] == "LimbNode")
    return truth


def reader_truth(truth, source_view):
    """For an FBX source, what the reader itself makes of the source takes the place of the figures."""
    if source_view is None:
        return truth
    own = dict(truth)
    for key in ("triangles", "min", "max", "materials", "bones", "colors", "blendChannels"):
        if key in source_view:
            own[key] = source_view[key]
    if "texturesWithPixels" in source_view:
        own["textures"] = source_view["texturesWithPixels"]
    if "texturesEmbedded" in source_view:
        own["textures"] = source_view["texturesEmbedded"]
    stacks = source_view.get("stacks")
    if isinstance(stacks, dict):
        own["clips"] = stacks
    elif isinstance(stacks, list):
        # Blender names an action ID|STACK|LAYER, and a source's stack or layer name may hold "|": counted only.
        own["clips"] = {str(k): 0 for k in range(len(stacks))}
        own["clipsCounted"] = True
    elif isinstance(stacks, int):
        own["clips"] = {str(k): 0 for k in range(stacks)}
    return own


def bounds_close(view, truth):
    diagonal = math.dist(truth["min"], truth["max"]) or 1
    return all(abs(view[k][i] - truth[k][i]) <= 0.01 * diagonal for k in ("min", "max") for i in range(3))


def colors_found(found, expected):
    return all(any(max(abs(a - b) for a, b in zip(c, e)) < 0.02 for c in found) for e in expected)


def record_checks(path, truth):
    version, root, _ = fbx_records.read(path)
    settings = root.find("GlobalSettings").properties()
    objects = root.find("Objects")
    meshes = [g for g in objects.all("Geometry") if g.values[2] == "Mesh"]
    limbs = {m.values[0] for m in objects.all("Model") if m.values[2] == "LimbNode"}
    posed = {n.find("Node").values[0] for p in objects.all("Pose") for n in p.all("PoseNode")}
    meters = truth["metersPerUnit"]
    return {
        "version 7400": version == 7400,
        "UnitScaleFactor": abs(settings["UnitScaleFactor"][0] - 100 * meters) < 1e-9,
        "Y up right-handed": [settings[k][0] for k in ("UpAxis", "UpAxisSign", "FrontAxis", "FrontAxisSign", "CoordAxis", "CoordAxisSign")]
        == [1, 1, 2, 1, 0, 1],
        "smoothing layer": bool(meshes) and all(g.find("LayerElementSmoothing") is not None for g in meshes),
        "bind pose holds every bone": limbs <= posed,
        "no leaf bones added": len(limbs) == truth.get("limbs", truth["bones"]),
    }


def reader_checks(name, view, truth):
    checks = {f"{name} triangles": view["triangles"] == truth["triangles"]}
    if "min" in view:
        checks[f"{name} bounds"] = bounds_close(view, truth)
    checks[f"{name} materials"] = view["materials"] == truth["materials"]
    if "colors" in view:
        checks[f"{name} base colours"] = colors_found(view["colors"], truth["colors"])
    if "texturesWithPixels" in view:
        checks[f"{name} textures with pixels"] = view["texturesWithPixels"] >= truth["textures"]
    if "texturesEmbedded" in view:
        checks[f"{name} textures embedded"] = view["texturesEmbedded"] >= truth["textures"]
    checks[f"{name} bones"] = view["bones"] == truth["bones"]
    if "unweighted" in view:
        checks[f"{name} every vertex weighted, sums 1"] = view["unweighted"] == 0 and view["badSums"] == 0
        checks[f"{name} bind pose holds bones"] = view["bindPoseHoldsBones"]
    if "blendChannels" in view:
        checks[f"{name} blend-shape channels"] = view["blendChannels"] == truth["blendChannels"]
    stacks = view["stacks"]
    if isinstance(stacks, int):
        checks[f"{name} one stack per clip"] = stacks == len(truth["clips"])
    elif isinstance(stacks, dict):
        checks[f"{name} one stack per clip"] = sorted(stacks) == sorted(truth["clips"])
        checks[f"{name} clip lengths"] = all(abs(stacks.get(c, -1) - length) < 1 / 30 for c, length in truth["clips"].items())
    elif truth.get("clipsCounted"):
        checks[f"{name} one stack per clip"] = len(stacks) == len(truth["clips"])
    else:
        checks[f"{name} one stack per clip"] = sorted(stacks) == sorted(truth["clips"])
    return checks


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fbx-writer")
    results = {}
    for source in INPUTS:
        if not source.exists():
            pytest.fail(f"missing input {source}")
        out = folder / (source.stem + ".fbx")
        convert(source, out)
        truth = source_truth(source)
        truth["metersPerUnit"] = assetc_info(source)["metersPerUnit"] if source.suffix != ".fbx" else assetc_info(out)["metersPerUnit"]
        checks = record_checks(out, truth)
        fbx = source.suffix.lower() == ".fbx"
        for name, view in (("ufbx", ufbx_view), ("Blender", blender_view), ("assimp", assimp_view)):
            checks.update(reader_checks(name, view(out), reader_truth(truth, view(source) if fbx else None)))
        results[source.name] = checks
    return results


def test_at_least_95_percent_of_the_readers_checks_pass(judged):
    failed = [f"{source}: {check}" for source, checks in judged.items() for check, ok in checks.items() if not ok]
    total = sum(len(checks) for checks in judged.values())
    passed = total - len(failed)
    print(f"\nFBX writer: {passed} of {total} checks pass ({100 * passed / total:.1f}%); failing: {failed}")
    assert passed >= 0.95 * total, f"{passed} of {total} checks pass; failing: {failed}"


def test_every_input_keeps_its_triangles_in_every_reader(judged):
    for source, checks in judged.items():
        for reader in ("ufbx", "Blender", "assimp"):
            assert checks[f"{reader} triangles"], f"{source}: {reader} reads other triangles"


def test_the_settings_engines_read_are_written(judged):
    for source, checks in judged.items():
        for name in ("version 7400", "UnitScaleFactor", "Y up right-handed", "smoothing layer", "bind pose holds every bone"):
            assert checks[name], f"{source}: {name}"


def same_figures(a, b):
    for key in ("triangles", "joints", "blendShapes", "animations"):
        assert a[key] == b[key], f"{key}: {a[key]} became {b[key]}"
    assert sorted(c["name"] for c in a["clips"]) == sorted(c["name"] for c in b["clips"])
    lengths = {c["name"]: c["end"] - c["start"] for c in b["clips"]}
    for clip in a["clips"]:
        assert abs(lengths[clip["name"]] - (clip["end"] - clip["start"])) < 1 / 30, clip["name"]


@pytest.mark.parametrize("name", ["rig.glb", "morph.glb", "props.glb"])
def test_glb_to_fbx_to_glb_keeps_triangles_joints_shapes_and_clips(tmp_path, name):
    source = WRITER / name
    convert(source, tmp_path / "a.fbx")
    convert(tmp_path / "a.fbx", tmp_path / "b.glb")
    same_figures(assetc_info(source), assetc_info(tmp_path / "b.glb"))


def test_usdz_to_fbx_to_usdz_keeps_them_and_passes_arkit(tmp_path):
    convert(WRITER / "rig.glb", tmp_path / "rig.usdz")
    convert(tmp_path / "rig.usdz", tmp_path / "rig.fbx")
    convert(tmp_path / "rig.fbx", tmp_path / "back.usdz")
    same_figures(assetc_info(tmp_path / "rig.usdz"), assetc_info(tmp_path / "back.usdz"))
    report = arkit_checker.check(tmp_path / "back.usdz")
    assert not report["errors"] and not report["failed"], report


def test_textures_written_beside_are_found_by_every_reader(tmp_path):
    out = tmp_path / "props.fbx"
    convert(WRITER / "props.glb", out, "--textures", "beside")
    beside = sorted(p.name for p in (tmp_path / "props_textures").iterdir())
    assert len(beside) == 2 and all(name.endswith(".png") for name in beside), beside
    _, root, _ = fbx_records.read(out)
    videos = root.find("Objects").all("Video")
    assert videos and all(v.find("Content") is None and v.find("RelativeFilename").values[0].startswith("props_textures/") for v in videos)
    assert ufbx_view(out)["texturesWithPixels"] == 2
    assert blender_view(out)["texturesWithPixels"] == 2
    assert assetc_info(out)["textures"] == 2


def test_textures_beside_is_refused_for_other_formats(tmp_path):
    result = run_assetc("convert", str(WRITER / "props.glb"), str(tmp_path / "props.glb"), "--textures", "beside")
    assert result.returncode == 2 and "--textures beside is for FBX output" in result.stderr
    assert not (tmp_path / "props.glb").exists()
