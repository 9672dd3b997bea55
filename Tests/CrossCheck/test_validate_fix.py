"""`assetc validate --fix` judged by usd-core: for every USD fixture and every fixture made to break a
rule, the repaired package

- no longer fails, in usd-core 24.11's legacy ARKit checker, any rule whose every error assetc called
  fixable, and fails no rule the input did not fail;
- is judged by assetc exactly as usd-core judges it (the same comparison as the input gets);
- composes, in usd-core 26, to the same prims, types, relationship targets and attribute values as the
  input, apart from the attributes a repair authors.
"""
import json
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, run_assetc
from test_validate_crosscheck import SOURCES, IDS, compare_with_legacy, legacy_verdict

# What the repairs author; everything else must read back the same.
AUTHORED = {"xformOpOrder", "xformOp:rotateX:zUpToYUp", "inputs:scale", "inputs:bias", "inputs:sourceColorSpace"}

STAGE_SCRIPT = """
import json, sys
from pxr import Sdf, Usd

def text(value):
    # Asset paths are compared by what they name, not where the package put the file.
    if isinstance(value, Sdf.AssetPath):
        return "asset:" + value.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if hasattr(value, "__iter__") and not isinstance(value, str) and any(isinstance(v, Sdf.AssetPath) for v in value):
        return [text(v) for v in value]
    return str(value)

def describe(path):
    stage = Usd.Stage.Open(path)
    prims = {}
    for prim in stage.TraverseAll():
        attributes = {}
        for attribute in prim.GetAttributes():
            if not attribute.HasAuthoredValue():
                continue
            attributes[attribute.GetName()] = [text(attribute.Get())] + [[t, text(attribute.Get(t))] for t in attribute.GetTimeSamples()]
        targets = {r.GetName(): [str(t) for t in r.GetTargets()] for r in prim.GetRelationships() if r.HasAuthoredTargets()}
        prims[str(prim.GetPath())] = {"type": prim.GetTypeName(), "attributes": attributes, "targets": targets}
    return prims

print(json.dumps([describe(sys.argv[1]), describe(sys.argv[2])]))
"""


def repair(source, out):
    result = run_assetc("validate", "--json", str(source), "--fix", str(out))
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert (result.returncode == 1) == (report["output"]["errors"] > 0)
    assert out.is_file()
    return report


def fully_fixable_rules(findings):
    errors = [f for f in findings if f["severity"] == "error"]
    return {f["rule"] for f in errors} - {f["rule"] for f in errors if not f["fixable"]}


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_repaired_copy_passes_usd_core_where_fixable(source, tmp_path):
    before = source.read_bytes()
    out = tmp_path / (source.stem + "_fixed.usdz")
    report = repair(source, out)
    assert source.read_bytes() == before, "the input was changed"
    fixable = fully_fixable_rules(report["input"]["findings"]) - {s["rule"] for s in report["skipped"]}
    failing_before, _ = legacy_verdict(source)
    failing_after, _ = legacy_verdict(out)
    assert not (failing_after & fixable), (failing_after & fixable, report["changes"], report["skipped"])
    assert failing_after <= failing_before, (failing_after - failing_before, report["changes"])
    compare_with_legacy(out)


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_repaired_copy_composes_to_the_same_stage(source, tmp_path):
    out = tmp_path / (source.stem + "_fixed.usdz")
    repair(source, out)
    result = subprocess.run([sys.executable, "-c", STAGE_SCRIPT, str(source), str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    original, repaired = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(repaired) == set(original)
    for path, prim in original.items():
        copy = repaired[path]
        assert copy["type"] == prim["type"], path
        # A `delete` list op that leaves no targets is written as no opinion (Docs/Validation.md:
        # list-op edit kinds are not kept); both compose to no targets.
        assert {k: v for k, v in copy["targets"].items() if v} == {k: v for k, v in prim["targets"].items() if v}, path
        for name, value in prim["attributes"].items():
            if name in AUTHORED:
                continue
            assert copy["attributes"].get(name) == value, f"{path}.{name}"


def test_every_fixable_rule_is_repaired_by_some_fixture(tmp_path):
    repaired = set()
    for source in sorted((FIXTURES / "validate").glob("*.usd*")):
        report = repair(source, tmp_path / (source.name + ".fixed.usdz"))
        repaired |= {c["rule"] for c in report["changes"]}
    assert {"ByteAlignmentChecker", "CompressionChecker", "StageMetadataChecker", "TextureChecker", "NormalMapTextureChecker",
            "MaterialBindingAPIAppliedChecker", "SkelBindingAPIAppliedChecker", "ARKitFileExtensionChecker",
            "ARKitRootLayerChecker"} <= repaired


def test_z_up_stage_turns_y_up_with_the_same_world_positions(tmp_path):
    out = tmp_path / "zup.usdz"
    report = repair(FIXTURES / "validate" / "stage_metadata_zup.usda", out)
    assert report["output"]["errors"] == 0
    script = """
import json, sys
from pxr import Usd, UsdGeom
out = []
for path in sys.argv[1:]:
    stage = Usd.Stage.Open(path)
    mesh = stage.GetPrimAtPath("/Root/Tri")
    world = UsdGeom.Xformable(mesh).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
    points = [list(world.Transform(p)) for p in UsdGeom.Mesh(mesh).GetPointsAttr().Get()]
    out.append([UsdGeom.GetStageUpAxis(stage), points])
print(json.dumps(out))
"""
    result = subprocess.run([sys.executable, "-c", script, str(FIXTURES / "validate" / "stage_metadata_zup.usda"), str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    (axis_before, before), (axis_after, after) = json.loads(result.stdout.strip().splitlines()[-1])
    assert (axis_before, axis_after) == ("Z", "Y")
    # Z up (x, y, z) is Y up (x, z, -y).
    for (x, y, z), turned in zip(before, after):
        assert turned == pytest.approx([x, z, -y], abs=1e-6)


def test_a_package_reading_outside_itself_is_packed_whole(tmp_path):
    outside = tmp_path / "parts" / "outside.usda"
    outside.parent.mkdir()
    outside.write_text('#usda 1.0\n(\n    defaultPrim = "Part"\n)\n\ndef Xform "Part"\n{\n}\n')
    layer = tmp_path / "leaky.usda"
    layer.write_text((FIXTURES / "validate" / "clean.usda").read_text()
                     .replace("@textures/", f"@{FIXTURES / 'validate' / 'textures'}/")
                     .replace('def Scope "Looks"', f'def Xform "Outside" (\n        references = @{outside}@\n    )\n    {{\n    }}\n\n    def Scope "Looks"'))
    out = tmp_path / "whole.usdz"
    result = run_assetc("validate", "--json", str(layer), "--fix", str(out), "--allow-outside-paths")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    names = sorted(subprocess.run(["unzip", "-Z1", str(out)], capture_output=True, text=True, check=True).stdout.split())
    assert names == ["external/albedo.png", "external/normal.png", "leaky.usdc", "parts/outside.usda"], names
    assert report["output"]["failingRules"] == []
    failing, _ = legacy_verdict(out)
    assert failing == set()


def test_fix_refuses_to_overwrite_or_to_write_anything_but_usdz(tmp_path):
    source = FIXTURES / "validate" / "binding_api_missing.usda"
    result = run_assetc("validate", str(source), "--fix", str(tmp_path / "out.usda"))
    assert result.returncode != 0 and "usdz" in result.stderr
    assert not (tmp_path / "out.usda").exists()
    existing = tmp_path / "out.usdz"
    existing.write_bytes(b"keep")
    result = run_assetc("validate", str(source), "--fix", str(existing))
    assert result.returncode != 0 and "--force" in result.stderr
    assert existing.read_bytes() == b"keep"
    result = run_assetc("validate", str(source), "--fix", str(existing), "--force")
    assert result.returncode == 0, result.stderr
    assert existing.read_bytes()[:4] == b"PK\x03\x04"
    assert [p.name for p in tmp_path.iterdir()] == ["out.usdz"], "a temporary file was left behind"


def test_fix_names_the_frames_a_gif_texture_loses(tmp_path):
    """A GIF texture made by Pillow with three frames becomes a PNG of its first; the change says so."""
    from PIL import Image
    (tmp_path / "textures").mkdir()
    for texture in (FIXTURES / "validate" / "textures").iterdir():
        (tmp_path / "textures" / texture.name).write_bytes(texture.read_bytes())
    (tmp_path / "scene.usda").write_text((FIXTURES / "validate" / "texture_gif.usda").read_text())
    first = Image.open(FIXTURES / "validate" / "textures" / "albedo.gif").convert("RGB")
    # Frames that differ (Pillow merges equal ones): the fixture's pixel, then red, then blue.
    others = [Image.new("RGB", first.size, colour) for colour in ((255, 0, 0), (0, 0, 255))]
    first.save(tmp_path / "textures" / "albedo.gif", save_all=True, append_images=others)
    result = run_assetc("validate", "--json", str(tmp_path / "scene.usda"), "--fix", str(tmp_path / "fixed.usdz"))
    assert result.returncode == 0, result.stdout + result.stderr
    changes = [c["message"] for c in json.loads(result.stdout)["changes"] if "to PNG" in c["message"]]
    assert len(changes) == 1 and changes[0].endswith("(the first of 3 GIF frames kept)"), changes
