"""`assetc validate` against OpenUSD's own checkers, on every USD fixture and on the fixtures in
Tests/Fixtures/validate made to break each rule:

- the ARKit rules that fail equal those usd-core 24.11's legacy `ComplianceChecker(arkit=True)`
  (what `usdchecker --arkit` runs) fails, and so do the rules it only warns about;
- the framework validator ids assetc names equal those usd-core 26's `pxr.UsdValidation` reports,
  among the validators assetc implements.

Docs/Validation.md lists what is left out and why."""
import json
import re
import subprocess
import sys
import zipfile

import pytest

from conftest import FIXTURES, ROOT, run_assetc
import arkit_checker

# usd-core 24.11's wheel cannot run ShaderPropertyTypeConformanceChecker (arkit_checker.SKIPPED);
# its framework twin, ShaderSdrCompliance, is compared below instead. ARKitRootLayerChecker is a
# warning assetc keeps from usdchecker releases before 24.11, which 24.11 does not run.
NOT_IN_LEGACY = {arkit_checker.SKIPPED, "ARKitRootLayerChecker"}
# assetc's own checks beyond usdchecker (meshes, texture coordinates, budgets): cross-checked against
# usd-core's own mesh API in test_validate_mesh_crosscheck.py, not against the ARKit checker.
ASSETC_RULES = {"MeshTopologyChecker", "MeshPrimvarChecker", "MeshGeometryChecker", "GeomSubsetChecker",
                "TextureCoordinateChecker", "BudgetChecker", "MaterialXChecker"}
# GaussianSplatChecker holds ParticleField3DGaussianSplat data to the usdVol schema's rules, which
# usdchecker does not check; test_splats.py builds its broken fields with usd-core's UsdVol API.
ASSETC_RULES |= {"GaussianSplatChecker"}
NOT_IN_LEGACY |= ASSETC_RULES

# The framework validators assetc implements; the others (physics, media, lights...) are listed
# as not done in Docs/Validation.md.
FRAMEWORK = {
    "usdUtilsValidators:UsdzPackageValidator", "usdUtilsValidators:RootPackageValidator",
    "usdUtilsValidators:MissingReferenceValidator", "usdValidation:CompositionErrorTest",
    "usdGeomValidators:StageMetadataChecker", "usdValidation:StageMetadataChecker",
    "usdGeomValidators:EncapsulationChecker", "usdShadeValidators:EncapsulationRulesValidator",
    "usdShadeValidators:EncapsulationMaterialValidator", "usdShadeValidators:NormalMapTextureValidator",
    "usdShadeValidators:MaterialBindingApiAppliedValidator", "usdShadeValidators:MaterialBindingCollectionValidator",
    "usdSkelValidators:SkelBindingApiAppliedValidator", "usdSkelValidators:SkelBindingApiValidator",
    "usdShadeValidators:ShaderSdrCompliance", "usdUtilsValidators:FileExtensionValidator",
    "usdUtilsValidators:PackageEncapsulationValidator",
    "usdGeomValidators:SubsetFamilies", "usdGeomValidators:SubsetParentIsImageable",
    "usdShadeValidators:SubsetsMaterialBindFamily",
}

# usd-core's PyPI wheel is built without the usdMtlx plugin: it cannot open a .mtlx layer, so a stage that
# references one (materialx/mtlx_reference.usda) is a composition error there and not for assetc.
SOURCES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".usda", ".usdc", ".usdz")
                 and "fail-case" not in p.parts and "render" not in p.parts and p.name != "mtlx_reference.usda") + sorted((ROOT / "Assets").rglob("*.usdz"))
IDS = [str(p.relative_to(ROOT)) for p in SOURCES]

FRAMEWORK_SCRIPT = """
import json, sys
from pxr import Usd, UsdValidation
registry = UsdValidation.ValidationRegistry()
validators = [registry.GetOrLoadValidatorByName(name) for name in json.loads(sys.argv[2])]
stage = Usd.Stage.Open(sys.argv[1])
print(json.dumps(sorted({e.GetValidator().GetMetadata().name for e in UsdValidation.ValidationContext(validators).Validate(stage)})))
"""


def assetc_verdict(path):
    result = run_assetc("validate", "--json", str(path))
    assert result.returncode in (0, 1), result.stderr
    entry = json.loads(result.stdout)["files"][0]
    assert entry.get("error") is None, entry
    assert (result.returncode == 1) == (entry["errors"] > 0)
    return entry


def rules_of(messages, pattern):
    return {re.search(pattern, message).group(1) for message in messages}


def legacy_verdict(path):
    report = arkit_checker.check(path)
    failing = rules_of(report["failed"], r"\(fails '(\w+)'\)$") | rules_of(report["errors"], r"^Error checking rule '(\w+)'")
    warning = rules_of(report["warnings"], r"\(may violate '(\w+)'\)$")
    return failing, warning


def compare_with_legacy(path):
    entry = assetc_verdict(path)
    failing, warning = legacy_verdict(path)
    ours_failing = {f["rule"] for f in entry["findings"] if f["severity"] == "error"} - NOT_IN_LEGACY
    ours_warning = {f["rule"] for f in entry["findings"] if f["severity"] == "warning"} - NOT_IN_LEGACY
    assert ours_failing == failing, entry["findings"]
    assert ours_warning == warning, entry["findings"]
    return entry


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_failing_rules_equal_the_legacy_arkit_checker(source):
    compare_with_legacy(source)


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_validator_ids_equal_the_validation_framework(source):
    entry = assetc_verdict(source)
    ours = {v for f in entry["findings"] for v in f["validators"]}
    assert ours <= FRAMEWORK, ours - FRAMEWORK
    result = subprocess.run([sys.executable, "-c", FRAMEWORK_SCRIPT, str(source), json.dumps(sorted(FRAMEWORK))],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert ours == set(json.loads(result.stdout.strip().splitlines()[-1])), entry["findings"]


def test_every_rule_is_broken_by_some_fixture():
    broken = set()
    # The splat fixtures' own broken field (the schema's length rules, made by usd-core) stands in
    # for GaussianSplatChecker.
    for source in sorted((FIXTURES / "validate").glob("*.usd*")) + [FIXTURES / "splats" / "field_rules.usda"]:
        broken |= {f["rule"] for f in assetc_verdict(source)["findings"]}
    # ARKitLayerChecker cannot fail in agreement: usd-core's wheel opens no layer format beyond the
    # core ones, so both tools call such a layer a missing reference (layer_sdf.usda shows it).
    # ARKitPackageEncapsulationChecker needs an absolute path, made in the test below.
    expected = {"ByteAlignmentChecker", "CompressionChecker", "MissingReferenceChecker", "StageMetadataChecker", "TextureChecker",
                "PrimEncapsulationChecker", "NormalMapTextureChecker", "MaterialBindingAPIAppliedChecker",
                "SkelBindingAPIAppliedChecker", "ShaderPropertyTypeConformanceChecker", "ARKitPrimTypeChecker", "ARKitShaderChecker",
                "ARKitMaterialBindingChecker", "ARKitFileExtensionChecker"} | ASSETC_RULES - {"BudgetChecker"}
    assert expected <= broken, sorted(expected - broken)


def test_a_package_reading_outside_itself_fails_encapsulation(tmp_path):
    outside = tmp_path / "outside.usda"
    outside.write_text('#usda 1.0\n(\n    defaultPrim = "Part"\n)\n\ndef Xform "Part"\n{\n}\n')
    layer = (FIXTURES / "validate" / "clean.usda").read_text().replace(
        'def Scope "Looks"', f'def Xform "Outside" (\n        references = @{outside}@\n    )\n    {{\n    }}\n\n    def Scope "Looks"')
    package = tmp_path / "leaky.usdz"
    with zipfile.ZipFile(package, "w") as archive:
        for name, data in [("leaky.usda", layer.encode())] + [(f"textures/{n}", (FIXTURES / "validate" / "textures" / n).read_bytes())
                                                               for n in ("albedo.png", "normal.png")]:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            pad = (-(archive.fp.tell() + 30 + len(name) + 4)) % 64
            info.extra = b"\x86\x19" + pad.to_bytes(2, "little") + b"\x00" * pad
            archive.writestr(info, data)
    entry = compare_with_legacy(package)
    assert {f["rule"] for f in entry["findings"] if f["severity"] == "error"} == {"ARKitPackageEncapsulationChecker"}
