"""Every glTF fixture (material extensions, variants and Draco ones among them), every animation fixture and every sample converted to usdz by assetc passes
OpenUSD's legacy ARKit compliance checker (usd-core 24.11's `ComplianceChecker(arkit=True)`, the
`usdchecker --arkit` rules): no errors, no failed checks."""
import subprocess

import pytest

from conftest import FIXTURES, ROOT, assetc_binary
import arkit_checker

# The rules usd-core 24.11 runs with arkit=True (the root-layer rule is part of CheckCompliance itself).
ARKIT_RULES = {"ByteAlignmentChecker", "CompressionChecker", "MissingReferenceChecker", "StageMetadataChecker", "TextureChecker",
               "PrimEncapsulationChecker", "NormalMapTextureChecker", "MaterialBindingAPIAppliedChecker",
               "SkelBindingAPIAppliedChecker", "ARKitLayerChecker", "ARKitPrimTypeChecker", "ARKitShaderChecker",
               "ARKitMaterialBindingChecker", "ARKitFileExtensionChecker", "ARKitPackageEncapsulationChecker"}
SOURCES = (sorted(p for p in (FIXTURES / "gltf").glob("*") if p.suffix in (".gltf", ".glb"))
           + sorted(p for p in (FIXTURES / "gltf" / "compressed").glob("*") if p.suffix in (".gltf", ".glb"))
           + sorted(p for p in (FIXTURES / "gltf" / "material_extensions").glob("*") if p.suffix in (".gltf", ".glb"))
           + sorted(p for p in (FIXTURES / "gltf" / "draco").glob("*") if p.suffix in (".gltf", ".glb"))
           + sorted(p for p in (FIXTURES / "anim").glob("*") if p.suffix in (".usda", ".gltf", ".glb", ".dae"))
           + sorted((FIXTURES / "anim" / "collada_channels").glob("*.dae"))
           + [FIXTURES / "usd" / "xform_animation" / "xform_animation.usda"]
           + sorted((ROOT / "Assets").rglob("*.dae")) + sorted((ROOT / "Assets").rglob("*.usdz")))


@pytest.mark.parametrize("source", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_converted_usdz_passes_the_arkit_compliance_checker(source, tmp_path):
    out = tmp_path / "out.usdz"
    result = subprocess.run([assetc_binary(), "convert", "--force", str(source), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = arkit_checker.check(out)
    assert ARKIT_RULES <= set(report["rules"]), sorted(ARKIT_RULES - set(report["rules"]))
    assert report["errors"] == [] and report["failed"] == [], report
