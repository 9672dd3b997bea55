"""`assetc validate --target usdz` on sources that are not USD: what converting them to usdz would
change or break. The verdict it gives on the usdz a conversion makes is checked against usd-core
24.11's legacy ARKit checker run on `assetc convert`'s own usdz of the same source, for every Collada
and glTF fixture and sample asset; the source-level findings (Z up, missing textures, what the
conversion leaves out) are checked on fixtures that have them."""
import json

import pytest

from conftest import FIXTURES, ROOT, run_assetc
from test_validate_crosscheck import NOT_IN_LEGACY, legacy_verdict

SOURCES = sorted(p for p in list((FIXTURES / "collada").glob("*.dae")) + list((FIXTURES / "gltf").glob("*.gl*"))
                 + list((ROOT / "Assets").rglob("*.dae")))
IDS = [str(p.relative_to(ROOT)) for p in SOURCES]


def target_verdict(source):
    result = run_assetc("validate", "--target", "usdz", "--json", str(source))
    assert result.returncode in (0, 1), result.stderr
    entry = json.loads(result.stdout)["files"][0]
    assert entry.get("error") is None, entry
    return entry


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_the_usdz_verdict_equals_usd_core_on_the_converted_package(source, tmp_path):
    entry = target_verdict(source)
    out = tmp_path / "converted.usdz"
    converted = run_assetc("convert", str(source), str(out))
    assert converted.returncode == 0, converted.stderr
    failing, warning = legacy_verdict(out)
    in_usdz = [f for f in entry["findings"] if f["message"].startswith("in the usdz: ")]
    ours_failing = {f["rule"] for f in in_usdz if f["severity"] == "error"} - NOT_IN_LEGACY
    ours_warning = {f["rule"] for f in in_usdz if f["severity"] == "warning"} - NOT_IN_LEGACY
    assert (ours_failing, ours_warning) == (failing, warning), entry["findings"]
    assert all(f["location"]["file"] == str(source) for f in entry["findings"])


def test_source_findings_say_what_the_conversion_changes(tmp_path):
    ship = target_verdict(ROOT / "Assets" / "Art.scnassets" / "ship.dae")
    assert any(f["rule"] == "ConversionChecker" and "Z up" in f["message"] for f in ship["findings"])
    webp = target_verdict(FIXTURES / "gltf" / "checker_webp.gltf")
    assert any("textures converted to PNG" in f["message"] and "(WebP)" in f["message"] for f in webp["findings"])
    # A texture that does not resolve is an error: the usdz would show the model untextured.
    dae = (FIXTURES / "collada" / "materials_textures.dae").read_text()
    broken = tmp_path / "broken.dae"
    broken.write_text(dae)
    missing = target_verdict(broken)
    errors = [f for f in missing["findings"] if f["rule"] == "ConversionChecker" and f["severity"] == "error"]
    assert errors and all("does not resolve" in f["message"] for f in errors)
    assert run_assetc("validate", "--target", "usdz", str(broken)).returncode == 1


def test_without_target_other_formats_are_refused_and_folders_skip_them(tmp_path):
    result = run_assetc("validate", str(ROOT / "Assets" / "Art.scnassets" / "ship.dae"))
    assert result.returncode == 2 and "--target usdz" in result.stderr
    plain = json.loads(run_assetc("validate", "--json", str(ROOT / "Assets")).stdout)
    targeted = json.loads(run_assetc("validate", "--json", "--target", "usdz", str(ROOT / "Assets")).stdout)
    assert all(f["file"].endswith((".usdz", ".usda", ".usdc")) for f in plain["files"])
    assert {f["file"] for f in targeted["files"]} - {f["file"] for f in plain["files"]} == {str(ROOT / "Assets" / "Art.scnassets" / "ship.dae")}
