"""The asset page's 3D view (issue 41), in Debian's Chromium driven by playwright (installed by
Scripts/setup-reference-tools), against a running `assetc serve`: three.js r111 comes from the
service (Debian's libjs-three), the model from its GLB conversion; the view draws it, plays its clip
and pauses, toggles wireframe and normals, resets after a drag; with JavaScript off the page is
the thumbnails and links; a glTF with material variants gets a picker that switches them.
"""
import json
import urllib.request
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from conftest import run_assetc
from page_service import BACKGROUND, ROOT, browser, service  # noqa: F401 (fixtures)

THREE = Path("/usr/share/javascript/three")  # where Debian's libjs-three installs r111
DEBIAN_PATHS = {"three.min.js": "three.min.js", "GLTFLoader.js": "examples/js/loaders/GLTFLoader.js",
                "OrbitControls.js": "examples/js/controls/OrbitControls.js"}


def open_view(browser, url):
    page = browser.new_page(viewport={"width": 900, "height": 1000})
    failures = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.assetcViewer && (window.assetcViewer.ready || window.assetcViewer.error)", timeout=120000)
    assert page.evaluate("window.assetcViewer.error") is None
    page.wait_for_timeout(300)
    return page, failures


def canvas(page):
    return Image.open(BytesIO(page.locator("#viewer canvas").screenshot())).convert("RGB")


def drawn(image):
    """Pixels that are not the background."""
    return sum(1 for p in image.getdata() if max(abs(a - b) for a, b in zip(p, BACKGROUND)) > 12)


def test_three_js_comes_from_the_service_with_cache_headers(service):
    base, _ = service
    for name in DEBIAN_PATHS:
        with urllib.request.urlopen(f"{base}/static/three/{name}") as response:
            assert response.status == 200 and "max-age" in response.headers["Cache-Control"]
            assert response.read() == (THREE / DEBIAN_PATHS[name]).read_bytes()


def test_the_view_draws_the_model_and_its_toggles_and_reset_work(service, browser):
    base, _ = service
    page, failures = open_view(browser, f"{base}/assets/Library/SceneKitAssetCatalog.scnassets/LoomisHead.usdz")
    info = json.loads(run_assetc("info", "--json", str(ROOT / "Assets" / "SceneKitAssetCatalog.scnassets" / "LoomisHead.usdz")).stdout)
    assert page.evaluate("window.assetcViewer.meshes") == info["meshes"]
    first = canvas(page)
    covered = drawn(first)
    assert covered > 0.05 * first.width * first.height, "the model fills a good part of the view"
    # Framed as the thumbnails are: the whole bounding sphere in view, so no edge is touched.
    width, height = first.size
    # A ring just inside the canvas's border and rounded corners.
    inset = 6
    ring = [first.getpixel((x, y)) for x in range(inset, width - inset) for y in (inset, height - 1 - inset)] + \
           [first.getpixel((x, y)) for y in range(inset, height - inset) for x in (inset, width - 1 - inset)]
    assert all(max(abs(a - b) for a, b in zip(p, BACKGROUND)) <= 12 for p in ring), "nothing cut at the edges"

    page.check("[data-action=wireframe]")
    page.wait_for_timeout(300)
    assert drawn(canvas(page)) < 0.9 * covered, "wireframe shows the background between the edges"
    page.uncheck("[data-action=wireframe]")
    page.check("[data-action=normals]")
    page.wait_for_timeout(300)
    blue = sum(1 for p in canvas(page).getdata() if p[2] > 180 and p[2] - p[0] > 80)
    assert blue > 200, "normals are drawn as blue lines"
    page.uncheck("[data-action=normals]")

    box = page.locator("#viewer canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 200, box["y"] + box["height"] / 2 + 40, steps=8)
    page.mouse.up()
    page.wait_for_timeout(300)
    turned = canvas(page)
    assert sum(abs(a - b) for p, q in zip(turned.getdata(), first.getdata()) for a, b in zip(p, q)) > 0, "a drag turns the model"
    page.click("[data-action=reset]")
    page.wait_for_timeout(500)
    again = canvas(page)
    differing = sum(1 for p, q in zip(again.getdata(), first.getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 24)
    assert differing < 0.01 * width * height, f"reset returns to the first view ({differing} pixels differ)"
    assert failures == []
    page.close()


def test_an_animated_asset_plays_its_clip_and_pauses(service, browser):
    base, library = service
    page, failures = open_view(browser, f"{base}/assets/Library/skinned_arm.usda")
    clips = json.loads(run_assetc("info", "--json", str(library / "skinned_arm.usda")).stdout)["clips"]
    assert page.evaluate("window.assetcViewer.clips") == [c["name"] for c in clips]
    options = page.locator("[data-action=clip] option").all_text_contents()
    assert len(options) == len(clips) and options[0].startswith(clips[0]["name"] + " (")
    t0 = page.evaluate("window.assetcViewer.time")
    before = canvas(page)
    page.wait_for_timeout(400)
    t1 = page.evaluate("window.assetcViewer.time")
    assert t1 != t0, "the clip plays"
    moving = canvas(page)
    changed = sum(1 for p, q in zip(before.getdata(), moving.getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 24)
    assert changed > 50, f"the arm moves on the canvas between two moments ({changed} pixels changed)"
    page.click("[data-action=play]")
    assert page.locator("[data-action=play]").text_content() == "Play"
    paused = page.evaluate("window.assetcViewer.time")
    page.wait_for_timeout(400)
    assert page.evaluate("window.assetcViewer.time") == paused, "paused"
    assert drawn(moving) > 0
    assert failures == []
    page.close()


def test_without_javascript_the_page_is_thumbnails_and_links(service, browser):
    base, _ = service
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/assets/Library/SceneKitAssetCatalog.scnassets/LoomisHead.usdz")
    assert not page.locator("#viewer").is_visible(), "the view stays hidden"
    thumbnails = page.locator("img.thumbnail")
    assert thumbnails.count() >= 4 and thumbnails.first.is_visible()
    assert page.locator("a[rel=ar]").count() == 1
    assert page.locator("a[href$='convert?to=glb']").count() == 1
    context.close()


def test_material_variants_switch_in_the_view(service, browser):
    base, library = service
    page, failures = open_view(browser, f"{base}/assets/Library/variants.glb")
    names = json.loads(run_assetc("info", "--json", str(library / "variants.glb")).stdout)["materialVariants"]
    assert page.evaluate("window.assetcViewer.variants") == names and len(names) == 2
    authored = canvas(page)
    page.select_option("[data-action=variant]", label=names[1])
    page.wait_for_function(f"window.assetcViewer.variant === {json.dumps(names[1])}")
    page.wait_for_timeout(300)
    switched = canvas(page)
    changed = sum(1 for p, q in zip(switched.getdata(), authored.getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 40)
    assert changed > 0.01 * authored.width * authored.height, "the materials change with the variant"
    page.select_option("[data-action=variant]", label="(as authored)")
    page.wait_for_function("window.assetcViewer.variant === null")
    page.wait_for_timeout(300)
    back = canvas(page)
    differing = sum(1 for p, q in zip(back.getdata(), authored.getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 24)
    assert differing < 0.005 * authored.width * authored.height, "back to the materials as authored"
    assert failures == []
    page.close()


@pytest.mark.parametrize("asset", ["SceneKitAssetCatalog.scnassets/LoomisHead.usdz", "SceneKitAssetCatalog.scnassets/LoomisHead/LoomisHead.usda",
                                   "Art.scnassets/ship.dae"])
def test_the_first_frame_matches_the_iso_thumbnail(service, browser, asset):
    """The view frames as the thumbnails do: on the 480-pixel-high canvas, the square in the middle
    shows the model where the 512-pixel iso thumbnail scaled to 480 does (the Z-up ship included,
    whose GLB conversion turned it Y-up)."""
    base, _ = service
    page, failures = open_view(browser, f"{base}/assets/Library/{asset}")
    view = canvas(page)
    width, height = view.size
    middle = view.crop(((width - height) // 2, 0, (width - height) // 2 + height, height))
    shown = [max(abs(a - b) for a, b in zip(p, BACKGROUND)) > 12 for p in middle.getdata()]
    with urllib.request.urlopen(f"{base}/api/assets/Library/{asset}/thumbnail.png?size=512") as response:
        thumbnail = Image.open(BytesIO(response.read())).convert("RGBA").resize((height, height), Image.BILINEAR)
    drawn_there = [p[3] > 127 for p in thumbnail.getdata()]
    both = sum(1 for a, b in zip(shown, drawn_there) if a and b)
    either = sum(1 for a, b in zip(shown, drawn_there) if a or b)
    print(f"{asset}: silhouette IoU {both / either:.3f}")
    assert both / either > 0.93, f"silhouettes overlap by {both / either:.3f} (IoU)"
    assert failures == []
    page.close()


def test_the_view_is_lit_by_the_thumbnails_environment(service, browser):
    """The page's view loads the service's environment (the studio, as RGBE) through r111's RGBELoader
    and PMREMGenerator and lights every mesh's material with it, and the head is drawn."""
    base, _ = service
    with urllib.request.urlopen(f"{base}/static/environment.hdr") as response:
        assert response.read(11) == b"#?RADIANCE\n"
    for name in ("RGBELoader.js", "PMREMGenerator.js", "PMREMCubeUVPacker.js"):
        with urllib.request.urlopen(f"{base}/static/three/{name}") as response:
            assert response.status == 200
    page, failures = open_view(browser, f"{base}/assets/Library/SceneKitAssetCatalog.scnassets/LoomisHead.usdz")
    page.wait_for_function("window.assetcViewer.environment !== null", timeout=60000)
    assert page.evaluate("window.assetcViewer.environment") == "loaded"
    lit, meshes = page.evaluate("[window.assetcViewer.litMeshes, window.assetcViewer.meshes]")
    assert meshes > 0 and lit == meshes, f"{lit} of {meshes} meshes have the environment map"
    # The thumbnails' Khronos PBR Neutral, put in r111's place for Uncharted 2.
    assert page.evaluate("window.assetcViewer.toneMapping") == "neutral"
    assert page.evaluate("THREE.ShaderChunk.tonemapping_pars_fragment.indexOf('startCompression') >= 0")
    image = canvas(page)
    assert drawn(image) > 0.05 * image.width * image.height
    assert failures == []
    page.close()
