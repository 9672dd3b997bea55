"""Crate (`.usdc`) layers written by usd-core itself: every valid USD fixture and sample exported
with `Sdf.Layer.Export` beside its text original, and packed with
`UsdUtils.CreateNewARKitUsdzPackage`. assetc must report the same figures on each as on the text
version, and as usd-core does on the crate file."""
import shutil

import pytest

from conftest import FIXTURES, ROOT, assetc_info, close
from usd_reference import figures

FIGURES = ("meshes", "points", "faces", "triangles", "primitives", "materials", "upAxis", "nodePaths")
TEXT_LAYERS = sorted(
    [p for p in (FIXTURES / "usd").rglob("*.usda") if "fail-case" not in p.parts]
    + list((ROOT / "Assets").rglob("*.usda"))
)


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """The fixture and sample folders copied, so crate versions sit beside the text layers their
    references and sublayers name."""
    root = tmp_path_factory.mktemp("crate")
    shutil.copytree(FIXTURES / "usd", root / "usd", ignore=shutil.ignore_patterns("fail-case"))
    shutil.copytree(ROOT / "Assets", root / "Assets")
    return root


def copied(path, root):
    relative = path.relative_to(FIXTURES) if FIXTURES in path.parents else path.relative_to(ROOT)
    return root / relative


def assert_same(mine, theirs, label):
    for key in FIGURES:
        if key in theirs:
            assert mine[key] == theirs[key], f"{label} {key}: {mine[key]} != {theirs[key]}"
    assert close(mine["metersPerUnit"], theirs["metersPerUnit"], abs(theirs["metersPerUnit"]), rel=1e-12)
    if theirs["bounds"] is None:
        assert mine["bounds"] is None, label
        return
    lo, hi = theirs["bounds"]["min"], theirs["bounds"]["max"]
    scale = max(max(b - a for a, b in zip(lo, hi)), max(abs(v) for v in lo + hi))
    for corner in ("min", "max"):
        for a, b in zip(mine["bounds"][corner], theirs["bounds"][corner]):
            assert close(a, b, scale), f"{label} bounds {corner}: {a} != {b}"


def test_there_are_cases():
    assert len(TEXT_LAYERS) >= 24


@pytest.mark.parametrize("text", TEXT_LAYERS, ids=[str(p.relative_to(ROOT)) for p in TEXT_LAYERS])
def test_usd_core_crate_export_reads_like_the_text(text, copies):
    from pxr import Sdf
    source = copied(text, copies)
    crate = source.with_name(source.stem + ".crate.usdc")
    assert Sdf.Layer.FindOrOpen(str(source)).Export(str(crate))
    assert crate.read_bytes().startswith(b"PXR-USDC")
    mine = assetc_info(crate)
    assert mine["format"] == "usdc"
    assert_same(mine, assetc_info(source), "crate vs text")
    assert_same(mine, figures(str(crate)), "assetc vs usd-core")


# Layers usd-core refuses to package, with the reason.
NOT_PACKAGEABLE = {
    "syntax_everything.usda": "names texture files that do not exist, so packaging fails",
}
ARKIT_SOURCES = [p for p in TEXT_LAYERS if p.name not in NOT_PACKAGEABLE]


@pytest.mark.parametrize("text", ARKIT_SOURCES, ids=[str(p.relative_to(ROOT)) for p in ARKIT_SOURCES])
def test_usd_core_arkit_package_reads_like_usd_core(text, copies, tmp_path):
    from pxr import UsdUtils
    package = tmp_path / (text.stem + ".usdz")
    assert UsdUtils.CreateNewARKitUsdzPackage(str(copied(text, copies)), str(package))
    mine = assetc_info(package)
    assert_same(mine, figures(str(package)), "assetc vs usd-core")
