"""`assetc convert FILE|FOLDER... --to FORMAT --out-dir DIR` (issue 39, part): every asset under the
folders and every file given converted in one process, named relative to its folder, one failure
reported and counted without stopping the rest, exit status 0 only when all converted; two inputs
that would write one output are refused before anything is written; existing outputs need --force;
the usdz it writes pass usd-core's ARKit checks as single conversions do."""
import shutil

import arkit_checker
from conftest import FIXTURES, ROOT, run_assetc


def library(tmp_path):
    folder = tmp_path / "in"
    (folder / "anim").mkdir(parents=True)
    for name in ("materials.gltf", "materials.bin", "nodes_instancing.gltf", "nodes_instancing.bin", "strips_fans_lines.glb"):
        shutil.copy(FIXTURES / "gltf" / name, folder / name)
    for name in ("simple_skin.gltf", "animated_cube.glb"):
        shutil.copy(FIXTURES / "anim" / name, folder / "anim" / name)
    (folder / ".hidden.gltf").write_text("{}")
    return folder


def test_folders_and_files_convert_with_names_kept_relative(tmp_path):
    folder = library(tmp_path)
    out = tmp_path / "out"
    ship = ROOT / "Assets" / "Art.scnassets" / "ship.dae"
    result = run_assetc("convert", str(folder), str(ship), "--to", "usdz", "--out-dir", str(out), timeout=300)
    assert result.returncode == 0, result.stderr
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == ["anim/animated_cube.usdz", "anim/simple_skin.usdz", "materials.usdz", "nodes_instancing.usdz",
                       "ship.usdz", "strips_fans_lines.usdz"], written
    assert result.stdout.strip() == f"6 converted to {out}, 0 failed"
    assert result.stderr.count("convert ") == 6 and "convert 6/6: " in result.stderr
    for name in ("anim/simple_skin.usdz", "ship.usdz"):
        report = arkit_checker.check(out / name)
        assert report["errors"] == [] and report["failed"] == [], (name, report)
    # The same outputs again: refused without --force (each counted), replaced with it.
    again = run_assetc("convert", str(folder), "--to", "usdz", "--out-dir", str(out), timeout=300)
    assert again.returncode != 0 and again.stdout.strip() == f"0 converted to {out}, 5 failed"
    forced = run_assetc("convert", str(folder), "--to", "usdz", "--out-dir", str(out), "--force", timeout=300)
    assert forced.returncode == 0, forced.stderr


def test_one_failure_is_counted_and_the_rest_go_on(tmp_path):
    folder = library(tmp_path)
    (folder / "anim" / "broken.gltf").write_text('{"asset": {"version": "2.0"}, "meshes": [')
    out = tmp_path / "out"
    result = run_assetc("convert", str(folder), "--to", "glb", "--out-dir", str(out), timeout=300)
    assert result.returncode == 1
    assert result.stdout.strip() == f"5 converted to {out}, 1 failed"
    assert result.stderr.count("assetc: error:") == 1 and "broken.gltf" in result.stderr
    assert not (out / "anim" / "broken.glb").exists()
    assert len(list(out.rglob("*.glb"))) == 5


def test_two_inputs_for_one_output_are_refused_before_anything_is_written(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(ROOT / "Assets" / "Art.scnassets" / "ship.dae", folder / "ship.dae")
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", folder / "ship.glb")
    out = tmp_path / "out"
    result = run_assetc("convert", str(folder), "--to", "usdz", "--out-dir", str(out))
    assert result.returncode != 0 and "would both be written as ship.usdz" in result.stderr
    assert not out.exists() or not any(out.rglob("*"))


def test_usage_mistakes_are_named(tmp_path):
    assert "needs --to" in run_assetc("convert", str(tmp_path), "--out-dir", str(tmp_path / "o")).stderr
    assert "--out-dir" in run_assetc("convert", "a.dae", "b.dae", "c.usdz").stderr
    missing = run_assetc("convert", str(tmp_path / "nowhere"), "--to", "usdz", "--out-dir", str(tmp_path / "o"))
    assert missing.returncode == 3 and "nowhere" in missing.stderr
