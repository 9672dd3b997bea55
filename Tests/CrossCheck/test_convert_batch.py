"""`assetc convert FILE|FOLDER... --to FORMAT --out-dir DIR` (issue 39, part): every asset under the
folders and every file given converted in one process, named relative to its folder, one failure
reported and counted without stopping the rest, exit status 0 only when all converted; inputs that
would write one output keep their extensions (issue 52), a collision past that costs that file alone;
files given by themselves mirror their folders below their common parent; existing outputs need --force;
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


def test_inputs_that_would_share_a_name_keep_their_extensions(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(ROOT / "Assets" / "Art.scnassets" / "ship.dae", folder / "ship.dae")
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", folder / "ship.glb")
    out = tmp_path / "out"
    result = run_assetc("convert", str(folder), "--to", "usdz", "--out-dir", str(out), timeout=300)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["ship.dae.usdz", "ship.glb.usdz"]


def test_a_tree_of_downloads_converts_in_one_call_with_folders_mirrored(tmp_path):
    """Five Sketchfab-style folders each holding `scene.gltf`, and `Box.gltf` beside `Box.glb`, given as
    a list of files: every one converts, to the names Docs/CLI.md gives, and --json pairs each input
    with its output."""
    import json
    tree = tmp_path / "downloads"
    inputs = []
    for k in range(5):
        model = tree / f"model{k}"
        model.mkdir(parents=True)
        shutil.copy(FIXTURES / "gltf" / "materials.gltf", model / "scene.gltf")
        shutil.copy(FIXTURES / "gltf" / "materials.bin", model / "materials.bin")
        inputs.append(model / "scene.gltf")
    box = tree / "box"
    box.mkdir()
    shutil.copy(FIXTURES / "gltf" / "nodes_instancing.gltf", box / "Box.gltf")
    shutil.copy(FIXTURES / "gltf" / "nodes_instancing.bin", box / "nodes_instancing.bin")
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", box / "Box.glb")
    inputs += [box / "Box.gltf", box / "Box.glb"]
    out = tmp_path / "out"
    result = run_assetc("convert", *map(str, inputs), "--to", "usdz", "--out-dir", str(out), "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    expected = [f"model{k}/scene.usdz" for k in range(5)] + ["box/Box.gltf.usdz", "box/Box.glb.usdz"]
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == sorted(expected), written
    report = json.loads(result.stdout)
    pairs = {c["input"]: c["output"] for c in report["conversions"]}
    assert pairs == {str(i): str(out / e) for i, e in zip(inputs, expected)}
    assert report["converted"] == 7 and report["failed"] == 0
    for name in ("model3/scene.usdz", "box/Box.glb.usdz"):
        checked = arkit_checker.check(out / name)
        assert checked["errors"] == [] and checked["failed"] == [], (name, checked)


def test_a_collision_that_remains_costs_only_that_file(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", folder / "Box.glb")
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", folder / "Box.usdz.glb")  # Box.usdz.usdz, no clash
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", other / "Box.glb")
    out = tmp_path / "out"
    # A folder's Box.glb and a file's Box.glb both want Box.glb.usdz once they keep their extensions.
    result = run_assetc("convert", str(folder), str(other / "Box.glb"), "--to", "usdz", "--out-dir", str(out), timeout=300)
    assert result.returncode != 0
    assert result.stdout.strip() == f"2 converted to {out}, 1 failed", result.stdout
    assert "is already written as Box.glb.usdz" in result.stderr and str(other / "Box.glb") in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["Box.glb.usdz", "Box.usdz.usdz"]
    # The same file given twice (inside its folder and by itself) is converted once.
    again = run_assetc("convert", str(folder), str(folder / "Box.glb"), "--to", "glb", "--out-dir", str(tmp_path / "o2"), timeout=300)
    assert again.returncode == 0 and again.stdout.strip() == f"2 converted to {tmp_path / 'o2'}, 0 failed", again.stderr


def test_usage_mistakes_are_named(tmp_path):
    assert "needs --to" in run_assetc("convert", str(tmp_path), "--out-dir", str(tmp_path / "o")).stderr
    assert "--out-dir" in run_assetc("convert", "a.dae", "b.dae", "c.usdz").stderr
    missing = run_assetc("convert", str(tmp_path / "nowhere"), "--to", "usdz", "--out-dir", str(tmp_path / "o"))
    assert missing.returncode == 3 and "nowhere" in missing.stderr


def test_thumbnails_of_files_of_one_name_in_two_folders_keep_apart(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(FIXTURES / "gltf" / "strips_fans_lines.glb", tmp_path / folder / "scene.glb")
    out = tmp_path / "out"
    result = run_assetc("thumbnail", str(tmp_path / "a" / "scene.glb"), str(tmp_path / "b" / "scene.glb"), "--out", str(out), "--size", "32")
    assert result.returncode == 0, result.stderr
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.png")) == ["a/scene.glb.png", "b/scene.glb.png"]
