"""`assetc validate` as CI uses it: exit statuses, folders, the text report and the SARIF log."""
import json

from conftest import FIXTURES, run_assetc

VALIDATE = FIXTURES / "validate"


def test_exit_status_follows_errors_and_strict_warnings():
    assert run_assetc("validate", str(VALIDATE / "clean.usda")).returncode == 0
    assert run_assetc("validate", str(VALIDATE / "texture_bmp.usda")).returncode == 1
    # A non-standard normal map scale is only a warning: it fails under --strict alone.
    assert run_assetc("validate", str(VALIDATE / "normal_map_odd_scale.usda")).returncode == 0
    assert run_assetc("validate", "--strict", str(VALIDATE / "normal_map_odd_scale.usda")).returncode == 1


def test_files_it_cannot_validate_get_their_read_status_and_one_error_line():
    dae = next((FIXTURES / "collada").glob("*.dae"))
    result = run_assetc("validate", str(dae))
    assert result.returncode == 2 and result.stderr.count("assetc: error:") == 1 and "convert it first" in result.stderr
    result = run_assetc("validate", str(VALIDATE / "not_here.usda"))
    assert result.returncode == 3 and "not_here.usda" in result.stderr


def test_a_folder_is_searched_for_usd_files_and_reported_per_rule():
    result = run_assetc("validate", str(VALIDATE))
    assert result.returncode == 1
    expected = sorted(p.name for p in VALIDATE.glob("*") if p.suffix in (".usda", ".usdz"))
    listed = [line.split(":")[0].rsplit("/", 1)[-1] for line in result.stdout.splitlines() if not line.startswith(" ") and "/" in line]
    assert listed == expected
    assert result.stdout.splitlines()[-1].startswith(f"{len(expected)} files: ")
    report = result.stdout[result.stdout.index("texture_bmp.usda:"):]
    assert "\n  TextureChecker: " in report and "(/Root/Looks/Paint/Albedo.inputs:file): @textures/albedo.bmp@" in report


def test_sarif_log_points_at_files_rules_and_prims():
    result = run_assetc("validate", "--sarif", str(VALIDATE / "compressed.usdz"), str(VALIDATE / "texture_bmp.usda"))
    assert result.returncode == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    # The usda root layer of the package is what iOS 12 could not read: a warning, not an error.
    assert set(by_rule) == {"CompressionChecker", "TextureChecker", "ARKitRootLayerChecker"}
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] == ("warning" if result["ruleId"] == "ARKitRootLayerChecker" else "error")
    compressed = by_rule["CompressionChecker"]["locations"][0]["physicalLocation"]
    # An entry of a package points at the package file, with no line of the zip.
    assert compressed["artifactLocation"]["uri"].endswith("compressed.usdz") and "region" not in compressed
    texture = by_rule["TextureChecker"]["locations"][0]
    assert texture["physicalLocation"]["artifactLocation"]["uri"].endswith("texture_bmp.usda")
    assert texture["physicalLocation"]["region"]["startLine"] == next(
        n for n, line in enumerate((VALIDATE / "texture_bmp.usda").read_text().splitlines(), 1) if "albedo.bmp" in line)
    assert texture["logicalLocations"][0]["fullyQualifiedName"] == "/Root/Looks/Paint/Albedo.inputs:file"
