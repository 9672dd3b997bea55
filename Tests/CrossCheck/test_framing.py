"""Framing: every view of every sample asset fits the model and, when drawn, its ground shadow, with a margin:
the two-pixel border of the picture stays fully transparent at every size (8 of the 36 views `serve` drew of the
sample library touched their border, and the Loomis head's front view cut its shadow at 46/255 alpha). The model
still fills the picture: what is drawn spans at least 45% of it across or down."""
import numpy as np
import pytest
from PIL import Image

from conftest import ROOT, run_assetc

ASSETS = [ROOT / "Assets" / "SceneKitAssetCatalog.scnassets" / "LoomisHead.usdz", ROOT / "Assets" / "Art.scnassets" / "ship.dae"]
VIEWS = ["iso", "front", "back", "left", "right", "top", "bottom"]


@pytest.mark.parametrize("size", [48, 256])
@pytest.mark.parametrize("shadow", ["--shadow", "--no-shadow"])
@pytest.mark.parametrize("asset", ASSETS, ids=[a.name for a in ASSETS])
def test_every_view_keeps_its_border_clear(asset, shadow, size, tmp_path):
    # Every view where the margin is a pixel or two (48 px); at 256 px the views whose shadow reached
    # the border (front, iso, left), to keep the debug build's run short.
    for view in VIEWS if size < 128 else ["front", "iso", "left"]:
        out = tmp_path / view
        result = run_assetc("thumbnail", asset, "--out", out, "--size", str(size), "--view", view, shadow, "--supersample", "2")
        assert result.returncode == 0, result.stderr
        alpha = np.asarray(Image.open(next(out.rglob("*.png"))).convert("RGBA"))[..., 3]
        border = np.concatenate([alpha[:2].ravel(), alpha[-2:].ravel(), alpha[:, :2].ravel(), alpha[:, -2:].ravel()])
        assert border.max() == 0, f"{asset.name} {view} {size}px {shadow}: border alpha up to {border.max()}"
        rows, cols = np.nonzero(alpha.max(axis=1))[0], np.nonzero(alpha.max(axis=0))[0]
        span = max(rows.max() - rows.min() + 1, cols.max() - cols.min() + 1) / size
        assert span >= 0.45, f"{asset.name} {view} {size}px {shadow}: the picture spans {span:.2f} of its side"
