"""assetc's figures for every valid USD fixture and sample, against usd-core's on the same file."""
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, assetc_info, close
from usd_reference import figures

USD_FIXTURES = FIXTURES / "usd"
# Layers that are only parts of other fixtures (sublayers, referenced files) are checked too: they
# are valid layers on their own.
CASES = sorted(
    [p for p in USD_FIXTURES.rglob("*") if p.suffix in (".usda", ".usdz") and "fail-case" not in p.parts]
    + [p for p in (ROOT / "Assets").rglob("*") if p.suffix in (".usda", ".usdz")]
)

# Fixtures where usd-core's figure is knowingly not what assetc reports, with the reason.
# Docs/FormatSupport.md lists the same. Keep this empty unless the reason is written there.
KNOWN_DIFFERENCES = {}


def test_there_are_cases():
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(ROOT)) for p in CASES])
def test_figures_match_usd_core(path):
    mine = assetc_info(path)
    reference = figures(str(path))
    skip = KNOWN_DIFFERENCES.get(path.name, {})
    for key in ("meshes", "points", "faces", "triangles", "primitives", "materials", "upAxis"):
        if key in skip:
            continue
        assert mine[key] == reference[key], f"{key}: assetc {mine[key]} != usd-core {reference[key]}"
    assert close(mine["metersPerUnit"], reference["metersPerUnit"], abs(reference["metersPerUnit"]), rel=1e-12)
    if "bounds" in skip:
        return
    if reference["bounds"] is None:
        assert mine["bounds"] is None
        return
    assert mine["bounds"] is not None, "assetc reports no bounds"
    size = max(b - a for a, b in zip(reference["bounds"]["min"], reference["bounds"]["max"]))
    scale = max(size, max(abs(v) for v in reference["bounds"]["min"] + reference["bounds"]["max"]))
    for corner in ("min", "max"):
        for axis, (a, b) in enumerate(zip(mine["bounds"][corner], reference["bounds"][corner])):
            assert close(a, b, scale), f"bounds {corner}[{axis}]: assetc {a} != usd-core {b}"
