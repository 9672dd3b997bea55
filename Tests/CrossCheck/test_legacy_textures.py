"""Textures that game and DCC exporters write (issue 52): TGA, BMP, TIFF, GIF, PSD and DDS (BC1-BC5 and
uncompressed), made by Pillow (Tests/Fixtures/textures/make_texture_fixtures.py), referenced from an
OBJ and converted to usdz and glb. Each conversion passes usd-core's ARKit checks or assetc's glTF
validation, names the texture it converted, and carries a PNG whose pixels are Pillow's reading of
the source (exactly for lossless formats; within the block codecs' rounding for DDS)."""
import io
import json
import struct
import zipfile

import numpy as np
import pytest
from PIL import Image

import arkit_checker
from conftest import FIXTURES, run_assetc

TEXTURES = FIXTURES / "textures"
# format -> (texture file, largest per-channel difference from Pillow allowed, channels compared)
CASES = {
    "tga": ("picture.tga", 0, 4), "bmp": ("picture.bmp", 0, 4), "gif": ("picture.gif", 0, 4),
    # libtiff's RGBA interface premultiplies alpha; dividing it back loses up to 255 / (2 x alpha)
    # on the faintest pixels (alpha 64 here).
    "tiff": ("picture.tif", 2, 4),
    "psd": ("picture.psd", 0, 4), "rgba": ("picture_rgba.dds", 0, 4),
    # Block formats interpolate their palettes; decoders round the thirds and sevenths differently.
    "dxt1": ("picture_dxt1.dds", 2, 4), "dxt3": ("picture_dxt3.dds", 2, 4), "dxt5": ("picture_dxt5.dds", 2, 4),
    "bc4": ("picture_bc4.dds", 2, 1),
    # BC5 holds a normal map's X and Y; assetc rebuilds Z where Pillow leaves 0, so only two are compared.
    "bc5": ("picture_bc5.dds", 2, 2),
}


def reference(texture):
    return np.asarray(Image.open(TEXTURES / texture).convert("RGBA"), np.int16)


def png_in_usdz(path):
    with zipfile.ZipFile(path) as package:
        names = [n for n in package.namelist() if n.endswith(".png")]
        assert len(names) == 1, package.namelist()
        return np.asarray(Image.open(io.BytesIO(package.read(names[0]))).convert("RGBA"), np.int16)


def png_in_glb(path):
    data = path.read_bytes()
    json_length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20:20 + json_length])
    binary = data[20 + json_length + 8:]
    (image,) = document["images"]
    assert image["mimeType"] == "image/png"
    view = document["bufferViews"][image["bufferView"]]
    start = view.get("byteOffset", 0)
    return np.asarray(Image.open(io.BytesIO(binary[start:start + view["byteLength"]])).convert("RGBA"), np.int16)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_legacy_texture_converts_to_png_with_its_pixels(name, tmp_path):
    texture, tolerance, channels = CASES[name]
    expected = reference(texture)
    usdz = tmp_path / f"{name}.usdz"
    result = run_assetc("convert", str(TEXTURES / f"quad_{name}.obj"), str(usdz))
    assert result.returncode == 0, result.stderr
    assert f"textures converted to PNG: {texture}" in result.stderr, result.stderr
    report = arkit_checker.check(usdz)
    assert report["errors"] == [] and report["failed"] == [], report
    got = png_in_usdz(usdz)
    assert np.abs(got[..., :channels] - expected[..., :channels]).max() <= tolerance

    glb = tmp_path / f"{name}.glb"
    assert run_assetc("convert", str(TEXTURES / f"quad_{name}.obj"), str(glb)).returncode == 0
    validation = json.loads(run_assetc("validate", "--json", str(glb)).stdout)
    assert validation["errors"] == 0, validation
    assert np.abs(png_in_glb(glb)[..., :channels] - expected[..., :channels]).max() <= tolerance


def test_a_texture_that_does_not_decode_leaves_the_constant_and_is_named(tmp_path):
    for name in ("quad_tga.obj", "quad_tga.mtl"):
        (tmp_path / name).write_bytes((TEXTURES / name).read_bytes())
    (tmp_path / "picture.tga").write_bytes(b"DDS " + bytes(60))  # a DDS header cut short
    usdz = tmp_path / "out.usdz"
    result = run_assetc("convert", str(tmp_path / "quad_tga.obj"), str(usdz))
    assert result.returncode == 0, result.stderr
    assert "texture picture.tga (DDS) does not decode, so its materials keep their constants" in result.stderr, result.stderr
    with zipfile.ZipFile(usdz) as package:
        assert not any(n.endswith((".tga", ".png")) for n in package.namelist()), package.namelist()
    report = arkit_checker.check(usdz)
    assert report["errors"] == [] and report["failed"] == [], report


def test_the_renderer_draws_a_dds_texture(tmp_path):
    """A thumbnail of the DXT1 quad is coloured by its texture, not the white constant."""
    out = tmp_path / "thumbs"
    result = run_assetc("thumbnail", str(TEXTURES / "quad_dxt1.obj"), "--out", str(out), "--size", "64", "--lighting", "headlight")
    assert result.returncode == 0, result.stderr
    assert "does not decode" not in result.stderr
    picture = np.asarray(Image.open(next(out.rglob("*.png"))).convert("RGBA"), np.int16)
    covered = picture[picture[..., 3] > 200][..., :3]
    assert len(covered) > 500
    # The ramp runs red across and green down: the quad is far from uniformly white.
    assert covered[:, 0].std() > 20 and covered[:, 1].std() > 20


def cube_from(single):
    """The single-surface uncompressed DDS as a six-face cube map (DDSCAPS2_CUBEMAP and every face bit,
    the faces one after another, as the DDS header reference lays them out)."""
    data = bytearray(single)
    caps2 = struct.unpack_from("<I", data, 112)[0] | 0x200 | 0xFC00
    struct.pack_into("<I", data, 112, caps2)
    return bytes(data) + bytes(single[128:]) * 5


@pytest.mark.parametrize("kind", ["gif", "tiff", "rgba"])
def test_pictures_one_texture_cannot_hold_are_named(kind, tmp_path):
    """A GIF's later frames, a TIFF's later pages and a DDS cube's other faces are named in the
    conversion's warning; the first picture is what is kept (Pillow's reading of it)."""
    texture = CASES[kind][0]
    for suffix in (".obj", ".mtl"):
        (tmp_path / f"quad_{kind}{suffix}").write_bytes((TEXTURES / f"quad_{kind}{suffix}").read_bytes())
    first = Image.open(TEXTURES / texture).convert("RGBA")
    if kind == "gif":
        others = [first.transpose(Image.Transpose.FLIP_LEFT_RIGHT), first.rotate(90)]
        first.convert("RGB").save(tmp_path / texture, save_all=True, append_images=[o.convert("RGB") for o in others])
        named = f"{texture} (GIF, the first of 3 GIF frames kept)"
    elif kind == "tiff":
        first.save(tmp_path / texture, save_all=True, append_images=[first.rotate(90), first.rotate(180), first.rotate(270)])
        named = f"{texture} (TIFF, the first of 4 TIFF pages kept)"
    else:
        (tmp_path / texture).write_bytes(cube_from((TEXTURES / texture).read_bytes()))
        named = f"{texture} (DDS, the first of 6 cube faces kept)"
    usdz = tmp_path / "out.usdz"
    result = run_assetc("convert", str(tmp_path / f"quad_{kind}.obj"), str(usdz))
    assert result.returncode == 0, result.stderr
    assert named in result.stderr, result.stderr
    expected = np.asarray(Image.open(tmp_path / texture).convert("RGBA"), np.int16)  # Pillow opens on the first picture
    assert np.abs(png_in_usdz(usdz) - expected).max() <= CASES[kind][1]
