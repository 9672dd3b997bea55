"""`--texture-format auto`, and `--max-size` before it makes textures smaller (issue 52): opaque colour
textures whose JPEG takes at most half their PNG (photographs) become JPEG; flat art, textures with
transparency and normal maps stay PNG. Pillow makes the pictures; Pillow reads back what was packaged."""
import io
import json
import zipfile

import numpy as np
from PIL import Image, ImageFilter

import arkit_checker
from conftest import run_assetc

SIDE = 1024


def photo():
    """A blurred random field with fine grain: what a photograph's statistics look like to a codec."""
    rng = np.random.default_rng(52)
    coarse = Image.fromarray(rng.integers(0, 256, (SIDE // 16, SIDE // 16, 3), dtype=np.uint8)).resize((SIDE, SIDE), Image.BICUBIC)
    grain = rng.normal(0, 6, (SIDE, SIDE, 3))
    return Image.fromarray(np.clip(np.asarray(coarse.filter(ImageFilter.GaussianBlur(3)), float) + grain, 0, 255).astype(np.uint8))


def flat_art():
    """Four flat quadrants: a logo's statistics."""
    pixels = np.zeros((SIDE, SIDE, 3), np.uint8)
    half = SIDE // 2
    pixels[:half, :half], pixels[:half, half:] = (200, 30, 30), (30, 200, 30)
    pixels[half:, :half], pixels[half:, half:] = (30, 30, 200), (240, 240, 240)
    return Image.fromarray(pixels)


def scene(folder):
    """An OBJ of two quads: one material on the photo (with a normal map of the same grain), one on the flat art,
    one on the photo with a transparent corner."""
    photo().save(folder / "photo.png")
    flat_art().save(folder / "flat.png")
    veiled = photo().convert("RGBA")
    veiled.putpixel((0, 0), (0, 0, 0, 0))
    veiled.save(folder / "veiled.png")
    normal = np.asarray(photo(), float)
    normal[..., 2] = 255
    Image.fromarray(normal.astype(np.uint8)).save(folder / "bumps.png")
    (folder / "quads.mtl").write_text("newmtl Photo\nmap_Kd photo.png\nnorm bumps.png\n"
                                      "newmtl Flat\nmap_Kd flat.png\n"
                                      "newmtl Veiled\nmap_Kd veiled.png\nmap_d veiled.png\n")
    lines = ["mtllib quads.mtl"]
    for q, material in enumerate(["Photo", "Flat", "Veiled"]):
        x = 2 * q
        lines += [f"v {x} 0 0", f"v {x + 1} 0 0", f"v {x + 1} 1 0", f"v {x} 1 0"]
    lines += ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    for q, material in enumerate(["Photo", "Flat", "Veiled"]):
        a = 4 * q
        lines += [f"usemtl {material}", f"f {a + 1}/1 {a + 2}/2 {a + 3}/3 {a + 4}/4"]
    (folder / "quads.obj").write_text("\n".join(lines) + "\n")
    return folder / "quads.obj"


def packaged(usdz):
    with zipfile.ZipFile(usdz) as package:
        return {name: Image.open(io.BytesIO(package.read(name))) for name in package.namelist() if not name.endswith((".usdc", ".usda"))}


def formats_by_stem(images):
    return {name.rsplit("/", 1)[-1].rsplit(".", 1)[0]: (image.format, image.size) for name, image in images.items()}


def test_auto_stores_photographs_as_jpeg_and_the_rest_losslessly(tmp_path):
    source = scene(tmp_path)
    out = tmp_path / "auto.usdz"
    result = run_assetc("convert", str(source), str(out), "--texture-format", "auto")
    assert result.returncode == 0, result.stderr
    images = packaged(out)
    found = formats_by_stem(images)
    assert found == {"photo": ("JPEG", (SIDE, SIDE)), "flat": ("PNG", (SIDE, SIDE)), "veiled": ("PNG", (SIDE, SIDE)),
                     "bumps": ("PNG", (SIDE, SIDE))}, found
    # The JPEG is the photo within JPEG's loss; the flat art is exact.
    jpeg = next(i for n, i in images.items() if n.endswith("photo.jpg"))
    error = np.asarray(jpeg.convert("RGB"), float) - np.asarray(photo(), float)
    psnr = 10 * np.log10(255 ** 2 / np.mean(error ** 2))
    assert psnr >= 30, psnr
    flat = next(i for n, i in images.items() if "flat" in n)
    assert np.array_equal(np.asarray(flat.convert("RGB")), np.asarray(flat_art()))
    checked = arkit_checker.check(out)
    assert checked["errors"] == [] and checked["failed"] == [], checked


def test_max_size_tries_jpeg_for_photographs_before_shrinking_textures(tmp_path):
    source = scene(tmp_path)
    whole = tmp_path / "whole.usdz"
    assert run_assetc("convert", str(source), str(whole)).returncode == 0
    budget = whole.stat().st_size * 3 // 4  # above what JPEG photos give, below what PNG photos do
    out = tmp_path / "fitted.usdz"
    result = run_assetc("convert", str(source), str(out), "--max-size", f"{budget // 1024}K", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["conversions"][0]
    assert [t["textureFormat"] for t in report["sizeTries"]] == ["keep"], report["sizeTries"]
    assert out.stat().st_size <= budget // 1024 * 1024
    found = formats_by_stem(packaged(out))
    assert found["photo"] == ("JPEG", (SIDE, SIDE)) and found["flat"] == ("PNG", (SIDE, SIDE)), found
