"""The asset page of a Gaussian-splat capture (issue 60), in Debian's Chromium driven by playwright
against a running `assetc serve`: its 3D view draws the splats with the page's own WebGL splat
script (three.js r111 has none), sorted back to front by a worker, turning until touched, framed
and upright as the iso thumbnail; its GLB for the view holds the splats at degree 0; the page and
the gallery card offer the turntable, which is what a browser without WebGL shows.

The capture is upright_capture.ply: a pole, red at the top and blue at the foot, on a green disc,
in COLMAP's y-down axes."""
import io
import json
import urllib.request

import pygltflib
from PIL import Image

from conftest import run_assetc
from page_service import BACKGROUND, browser, service  # noqa: F401 (fixtures)
from test_viewer_pages import canvas, drawn

PAGE = "/assets/Library/capture.ply"
API = "/api/assets/Library/capture.ply"


def open_capture(browser, base):
    page = browser.new_page(viewport={"width": 900, "height": 1000})
    failures = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(base + PAGE)
    page.wait_for_function("window.assetcViewer && (window.assetcViewer.ready || window.assetcViewer.error)", timeout=120000)
    assert page.evaluate("window.assetcViewer.error") is None
    page.wait_for_function("window.assetcViewer.splatSorts > 0", timeout=60000)
    return page, failures


def fetch(url):
    with urllib.request.urlopen(url) as response:
        return response.headers, response.read()


def colour_rows(image, test):
    rows = [y for y in range(image.height) for x in range(0, image.width, 2) if test(image.getpixel((x, y)))]
    return sum(rows) / len(rows) if rows else None


def test_the_view_glb_holds_every_splat_at_degree_zero(service):
    base, library = service
    info = json.loads(run_assetc("info", "--json", str(library / "capture.ply")).stdout)
    headers, body = fetch(base + API + "/view.glb")
    assert headers["Content-Type"] == "model/gltf-binary"
    gltf = pygltflib.GLTF2.load_from_bytes(body)
    [primitive] = [p for m in gltf.meshes for p in m.primitives if p.extensions and "KHR_gaussian_splatting" in p.extensions]
    # pygltflib keeps an extension's attributes in the Attributes object's own fields, as test_splats_gltf reads them.
    splat_names = {k for k, v in primitive.attributes.__dict__.items() if k.startswith("KHR_gaussian_splatting:") and v is not None}
    assert "KHR_gaussian_splatting:SH_DEGREE_0_COEF_0" in splat_names
    assert not any("SH_DEGREE_1" in k for k in splat_names), "the view's GLB stops at degree 0"
    assert gltf.accessors[primitive.attributes.POSITION].count == info["splats"] == 300


def test_a_capture_is_drawn_as_sorted_splats_upright_and_framed_as_its_thumbnail(service, browser):
    base, _ = service
    page, failures = open_capture(browser, base)
    assert page.evaluate("window.assetcViewer.splats") == 300 and page.evaluate("window.assetcViewer.meshes") == 0
    # Stopped and sent home, the view shows the iso thumbnail's framing.
    page.click("[data-action=turn]")
    sorts = page.evaluate("window.assetcViewer.splatSorts")
    page.click("[data-action=reset]")
    # The view moved home: a new order is made for it (within a few frames; then nothing moves).
    page.wait_for_function("(n) => window.assetcViewer.splatSorts > n", arg=sorts, timeout=30000)
    page.wait_for_timeout(500)
    # Back to front for the view it was sorted for, to the counting sort's 1/65535 of the depth range.
    assert page.evaluate("window.assetcViewer.splatOrderError()") <= 2 / 65535
    view = canvas(page)
    width, height = view.size
    middle = view.crop(((width - height) // 2, 0, (width - height) // 2 + height, height))
    _, png = fetch(base + API + "/thumbnail.png?size=512")
    # The thumbnail over the view's background, so both are judged by one threshold (a splat's edge
    # fades: a threshold on alpha alone would not be the same line as one on colour).
    thumbnail = Image.open(io.BytesIO(png)).convert("RGBA").resize((height, height), Image.BILINEAR)
    thumbnail = Image.alpha_composite(Image.new("RGBA", thumbnail.size, BACKGROUND + (255,)), thumbnail).convert("RGB")
    shown = [max(abs(a - b) for a, b in zip(p, BACKGROUND)) > 12 for p in middle.getdata()]
    there = [max(abs(a - b) for a, b in zip(p, BACKGROUND)) > 12 for p in thumbnail.getdata()]
    both = sum(1 for a, b in zip(shown, there) if a and b)
    either = sum(1 for a, b in zip(shown, there) if a or b)
    difference = sum(max(abs(a - b) for a, b in zip(p, q)) for p, q in zip(middle.getdata(), thumbnail.getdata())) / (height * height)
    print(f"splat view against the iso thumbnail: silhouette IoU {both / either:.3f}, mean largest channel difference {difference:.1f}")
    assert both / either > 0.85, f"silhouettes overlap by {both / either:.3f} (IoU)"
    assert difference <= 6, "the view's colours are the thumbnail's (both display-referred, the base colour here)"
    # Upright: the red top of the pole above its blue foot, the green disc below both.
    red = colour_rows(middle, lambda p: p[0] > 150 and p[1] < 90 and p[2] < 90)
    blue = colour_rows(middle, lambda p: p[2] > 150 and p[0] < 90 and p[1] < 90)
    green = colour_rows(middle, lambda p: p[1] > 150 and p[0] < 120 and p[2] < 120)
    assert None not in (red, blue, green) and red < blue < green, (red, blue, green)
    assert failures == []
    page.close()


def test_the_capture_turns_until_touched_and_is_sorted_again_as_it_turns(service, browser):
    base, _ = service
    page, failures = open_capture(browser, base)
    assert page.locator("[data-action=turn]").is_checked()
    before, sorts = canvas(page), page.evaluate("window.assetcViewer.splatSorts")
    position = page.evaluate("window.assetcViewer.camera().position")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.assetcViewer.camera().position") != position, "the view turns by itself"
    assert page.evaluate("window.assetcViewer.splatSorts") > sorts + 2, "each new view is sorted again"
    after = canvas(page)
    changed = sum(1 for p, q in zip(before.getdata(), after.getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 24)
    assert changed > 200 and drawn(after) > 0.02 * after.width * after.height
    # A drag takes hold: the turning stops and the box says so.
    box = page.locator("#viewer canvas").bounding_box()
    page.mouse.move(box["x"] + 300, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 340, box["y"] + 210)
    page.mouse.up()
    assert not page.locator("[data-action=turn]").is_checked()
    held = page.evaluate("window.assetcViewer.camera().position")
    page.wait_for_timeout(500)
    # Still (r111's controls recompute the position every frame, which moves it by rounding alone).
    assert max(abs(a - b) for a, b in zip(page.evaluate("window.assetcViewer.camera().position"), held)) < 1e-9
    assert failures == []
    page.close()


def test_the_turntable_is_on_the_page_and_the_gallery_card(service, browser):
    base, _ = service
    _, webp = fetch(base + API + "/preview.webp?size=128")
    turntable = Image.open(io.BytesIO(webp))
    assert turntable.n_frames == 24
    frames = []
    for k in (0, 6):
        turntable.seek(k)
        frames.append(turntable.convert("RGBA"))
    changed = sum(1 for p, q in zip(frames[0].getdata(), frames[1].getdata()) if max(abs(a - b) for a, b in zip(p, q)) > 24)
    assert changed > 100, "a quarter turn later the capture looks different"
    _, detail = fetch(base + API)
    assert json.loads(detail)["links"]["preview"].endswith("/preview.webp")
    page = browser.new_page()
    page.goto(base + PAGE)
    assert page.locator("figure img[alt='turntable preview']").count() == 1
    page.goto(base + "/")
    card = page.locator(".card", has=page.locator(f"a[href='{PAGE}']"))
    assert card.locator("img.moving").get_attribute("src").endswith("/preview.webp?size=256")
    page.close()


def test_without_webgl_the_page_says_so_and_shows_the_turntable(service, browser):
    # A browser without WebGL, as its canvases answer one: no context of any WebGL kind.
    base, _ = service
    page = browser.new_page()
    page.add_init_script("""(() => {
        const original = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (kind, options) {
            return /webgl/i.test(kind) ? null : original.call(this, kind, options);
        };
    })()""")
    failures = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(base + PAGE)
    page.wait_for_function("window.assetcViewer && window.assetcViewer.error", timeout=60000)
    assert page.evaluate("window.assetcViewer.error").startswith("no WebGL")
    assert "no WebGL" in page.locator("#viewer [data-status]").text_content()
    assert not page.locator("#viewer canvas").is_visible()
    turntable = page.locator("figure img[alt='turntable preview']")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=turntable.element_handle(), timeout=60000)
    assert failures == []
    page.close()


def test_meshes_and_splats_share_the_view(service, browser):
    # mixed_mesh_field.usda: a grey box under 40 splats. r111 draws the box, the page's script the
    # splats (depth-tested against it); the box's pixels are grey, the splats' coloured.
    base, _ = service
    page = browser.new_page(viewport={"width": 900, "height": 1000})
    failures = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(base + "/assets/Library/mixed_mesh_field.usda")
    page.wait_for_function("window.assetcViewer && window.assetcViewer.ready && window.assetcViewer.splatSorts > 0", timeout=120000)
    assert page.evaluate("[window.assetcViewer.meshes, window.assetcViewer.splats]") == [1, 40]
    assert page.locator("#viewer").get_attribute("data-glb").endswith("/mixed_mesh_field.usda/view.glb")
    image = canvas(page)
    grey = sum(1 for p in image.getdata() if max(p) - min(p) < 10 and max(abs(a - b) for a, b in zip(p, BACKGROUND)) > 20)
    coloured = sum(1 for p in image.getdata() if max(p) - min(p) > 60)
    assert grey > 2000 and coloured > 500, (grey, coloured)
    assert failures == []
    page.close()
