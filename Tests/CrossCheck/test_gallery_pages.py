"""The gallery and asset pages as a browser shows them (issue 41), in Debian's Chromium through
playwright: every model's card and page carry Apple's AR link (but a capture of Gaussian splats
alone, which AR Quick Look cannot draw), whose usdz downloads as
model/vnd.usdz+zip and passes usd-core's ARKit checks; a moving asset's card plays its animated
preview under the pointer, a still one has none; the asset page shows each material's swatch from
the swatch picture, in the material's colour.
"""
import json
import urllib.error
import urllib.request
from io import BytesIO

import pytest
from PIL import Image

import arkit_checker
from page_service import browser, service  # noqa: F401 (fixtures)


def models(base, ar=False):
    """The model ids; with `ar`, those AR Quick Look has something to show in (not splats alone)."""
    with urllib.request.urlopen(f"{base}/api/assets?where=kind%20%3D%20model&limit=500") as response:
        items = json.loads(response.read())["items"]
    return sorted(item["id"] for item in items if not (ar and (item.get("splats") or 0) > 0 and (item.get("meshes") or 0) == 0))


def test_every_model_has_an_ar_link_whose_usdz_passes_arkit(service, browser, tmp_path):
    base, _ = service
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.goto(base + "/")
    page.wait_for_load_state("networkidle")
    links = page.locator(".card a[rel=ar]")
    ids = models(base, ar=True)
    # A capture of splats alone has no AR link and no AR file: AR Quick Look draws no splats. A
    # model of meshes and splats has both, its usdz without the splats (checked below with the rest).
    assert "Library/capture.ply" in models(base) and "Library/capture.ply" not in ids
    assert "Library/mixed_mesh_field.usda" in ids
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{base}/api/assets/Library/capture.ply/ar.usdz")
    assert refused.value.code == 404 and "AR Quick Look does not draw" in refused.value.read().decode()
    assert links.count() == len(ids) >= 5
    hrefs = sorted(links.nth(k).get_attribute("href") for k in range(links.count()))
    assert hrefs == sorted(f"/api/assets/{i}/ar.usdz" for i in ids)
    # Apple's rule: the anchor's one child is an image, and here it has loaded.
    for k in range(links.count()):
        assert links.nth(k).evaluate("a => a.children.length === 1 && a.firstElementChild.tagName === 'IMG'")
        assert links.nth(k).locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    for k, href in enumerate(hrefs):
        response = page.request.get(base + href)
        assert response.status == 200 and response.headers["content-type"] == "model/vnd.usdz+zip", href
        assert "content-disposition" not in response.headers, "inline, for AR Quick Look to open"
        usdz = tmp_path / f"model{k}.usdz"
        usdz.write_bytes(response.body())
        report = arkit_checker.check(usdz)
        assert report["errors"] == [] and report["failed"] == [], (href, report)
    page.goto(f"{base}/assets/{ids[0]}")
    assert page.locator("a[rel=ar] img").count() == 1
    page.close()


def test_a_moving_card_plays_its_preview_under_the_pointer(service, browser):
    base, _ = service
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.goto(base + "/")
    page.wait_for_load_state("networkidle")
    card = page.locator(".card", has=page.locator("a[href='/assets/Library/skinned_arm.usda']"))
    still, moving = card.locator("img.still"), card.locator("img.moving")
    assert still.is_visible() and not moving.is_visible()
    card.hover()
    moving.wait_for(state="visible")
    assert not still.is_visible()
    assert moving.get_attribute("src").endswith("/preview.webp?size=256")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=moving.element_handle(), timeout=60000)
    page.mouse.move(0, 0)
    moving.wait_for(state="hidden")
    assert still.is_visible()
    ship = page.locator(".card", has=page.locator("a[href='/assets/Library/Art.scnassets/ship.dae']"))
    assert ship.locator("img.moving").count() == 0, "a still asset has no preview to play"
    page.close()


def test_the_asset_page_shows_each_materials_swatch(service, browser):
    """The sample head's clay is a paper texture (light, varied) and its ink a dark red: each
    square on the page, cut from the one swatch picture, is that."""
    base, _ = service
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.goto(f"{base}/assets/Library/SceneKitAssetCatalog.scnassets/LoomisHead.usdz")
    page.wait_for_load_state("networkidle")
    items = page.locator("ul.materials li")
    assert items.all_text_contents() == ["Clay", "Ink"]
    squares = []
    for k in range(items.count()):
        swatch = items.nth(k).locator(".swatch")
        assert "swatches.png" in swatch.evaluate("s => getComputedStyle(s).backgroundImage")
        squares.append(Image.open(BytesIO(swatch.screenshot())).convert("RGB"))
    def inner(image):
        w, h = image.size
        return [image.getpixel((x, y)) for x in range(6, w - 6) for y in range(6, h - 6)]
    clay, ink = inner(squares[0]), inner(squares[1])
    mean = [sum(p[c] for p in ink) / len(ink) for c in range(3)]
    assert mean[0] > mean[1] + 40 and mean[0] > mean[2] + 40, f"the ink is red: {mean}"
    assert sum(sum(p) for p in clay) / len(clay) > sum(sum(p) for p in ink) / len(ink) + 150, "the clay is the light paper"
    assert max(p[0] for p in clay) - min(p[0] for p in clay) > 20, "the paper's texture shows"
    page.close()
