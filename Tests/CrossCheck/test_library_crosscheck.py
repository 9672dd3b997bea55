"""An asset library laid out as production libraries are (shared `_common/` layers and a
`materials/` folder two levels above the props that reference them): assetc resolves them anywhere
under the asset root and gives usd-core's figures, refuses what leaves the root with one warning
that names the root and the flags, and never follows a symlink out of it."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, assetc_binary, close
from usd_reference import figures

LIBRARY = FIXTURES / "library"
ASSETS = sorted(p.relative_to(LIBRARY) for p in LIBRARY.rglob("*.usda") if "stray" not in p.parts)
STRAY = Path("props/stray/stray.usda")


def info(path, *flags, cwd):
    result = subprocess.run([assetc_binary(), "info", "--json", *flags, str(path)], capture_output=True, text=True,
                            timeout=60, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_same_figures(mine, reference):
    for key in ("meshes", "points", "faces", "triangles", "materials", "upAxis"):
        assert mine[key] == reference[key], f"{key}: assetc {mine[key]} != usd-core {reference[key]}"
    assert close(mine["metersPerUnit"], reference["metersPerUnit"], 1, rel=1e-12)
    if reference["bounds"] is None:
        assert mine["bounds"] is None
        return
    for corner in ("min", "max"):
        for a, b in zip(mine["bounds"][corner], reference["bounds"][corner]):
            assert close(a, b, 10), f"bounds {corner}: assetc {mine['bounds'][corner]} != usd-core {reference['bounds'][corner]}"


def test_the_library_has_shared_layers_used_by_several_assets():
    users = [p for p in ASSETS if "../../_common/" in (LIBRARY / p).read_text()]
    assert len(users) >= 2 and len(ASSETS) >= 5


@pytest.mark.parametrize("asset", ASSETS, ids=[str(p) for p in ASSETS])
def test_run_from_the_library_root_matches_usd_core(asset):
    mine = info(asset, cwd=LIBRARY)
    assert mine["warnings"] == []
    assert_same_figures(mine, figures(str(LIBRARY / asset)))


@pytest.mark.parametrize("asset", ASSETS, ids=[str(p) for p in ASSETS])
def test_asset_root_flag_matches_usd_core_from_anywhere(asset, tmp_path):
    mine = info(LIBRARY / asset, "--asset-root", str(LIBRARY), cwd=tmp_path)
    assert mine["warnings"] == []
    assert_same_figures(mine, figures(str(LIBRARY / asset)))


def test_outside_the_current_directory_the_assets_folder_is_the_root(tmp_path):
    mine = info(LIBRARY / "props/chair/chair.usda", cwd=tmp_path)
    refusals = [w for w in mine["warnings"] if "is outside the asset root" in w]
    chair_folder = str((LIBRARY / "props/chair").resolve())
    assert refusals and all(chair_folder in w and "--asset-root" in w and "--allow-outside-paths" in w for w in refusals)
    assert mine["meshes"] == 0


def test_a_reference_leaving_the_root_is_refused_with_one_named_warning():
    mine = info(STRAY, cwd=LIBRARY)
    reference = figures(str(LIBRARY / STRAY))
    refusals = [w for w in mine["warnings"] if "refused" in w]
    assert len(refusals) == 1
    assert "'../../../outside_library.usda' is outside the asset root " + str(LIBRARY.resolve()) in refusals[0]
    assert "stray.usda:" in refusals[0] and "(/Stray/Outside)" in refusals[0]
    assert mine["meshes"] == reference["meshes"] - 1
    assert mine["bounds"]["max"][0] < 900, "the outside triangle was read"
    allowed = info(STRAY, "--allow-outside-paths", cwd=LIBRARY)
    assert allowed["warnings"] == []
    assert_same_figures(allowed, reference)


def test_a_symlink_out_of_the_root_is_refused(tmp_path):
    library = tmp_path / "library"
    shutil.copytree(LIBRARY, library)
    outside = tmp_path / "secret.usda"
    shutil.copy(FIXTURES / "outside_library.usda", outside)
    os.symlink(outside, library / "_common" / "linked.usda")
    (library / "props" / "linker.usda").write_text(
        '#usda 1.0\n(\n    defaultPrim = "L"\n)\n\ndef "L" (\n    references = @../_common/linked.usda@\n)\n{\n}\n')
    mine = info(library / "props" / "linker.usda", cwd=library)
    assert mine["meshes"] == 0
    assert any("'../_common/linked.usda' is outside the asset root" in w for w in mine["warnings"]), mine["warnings"]
