"""Writes the PNG forms assetc's decoder is checked on, with Pillow (not assetc's own encoder), and
beside each the RGBA8 pixels Pillow decodes it to (NAME.rgba): 8-bit RGB and RGBA with Pillow's
adaptive per-row filters (its rows use every filter type), grey, grey with alpha, a palette with
and without transparency (read by libpng), RGB carrying a gAMA chunk (libpng converts it; the
libdeflate path must leave it to libpng), and an RGBA file whose rows cycle through all five filter
types (Pillow writes only some), filtered here by ISO/IEC 15948 section 9.2 and checked to decode
in Pillow to the pixels it was made from. Deterministic.

    python3 Tests/Fixtures/textures/png/make_png_forms.py
"""
from pathlib import Path

import numpy as np
from PIL import Image, PngImagePlugin

here = Path(__file__).resolve().parent
rng = np.random.default_rng(63)
w, h = 37, 23
x, y = np.meshgrid(np.arange(w), np.arange(h))
rgb = np.stack([x * 7 % 256, y * 11 % 256, (x * y) % 256], axis=-1).astype(np.uint8)
rgb[5:9, 3:30] = rng.integers(0, 256, (4, 27, 3))  # noise rows, so filters differ row to row
alpha = np.clip(x * 9 + y * 3, 0, 255).astype(np.uint8)
forms = {
    "rgb8": Image.fromarray(rgb, "RGB"),
    "rgba8": Image.fromarray(np.dstack([rgb, alpha]), "RGBA"),
    "grey8": Image.fromarray(rgb[:, :, 0], "L"),
    "grey_alpha8": Image.fromarray(np.dstack([rgb[:, :, 1], alpha]), "LA"),
    "palette": Image.fromarray(rgb, "RGB").quantize(16),
}
transparent = Image.fromarray(rgb, "RGB").quantize(16)
transparent.info["transparency"] = 3
forms["palette_transparent"] = transparent
for name, image in forms.items():
    image.save(here / f"{name}.png", transparency=image.info.get("transparency")) if "transparency" in image.info else image.save(here / f"{name}.png")
    decoded = Image.open(here / f"{name}.png").convert("RGBA")
    (here / f"{name}.rgba").write_bytes(decoded.tobytes())
gamma = PngImagePlugin.PngInfo()
gamma.add(b"gAMA", (100000).to_bytes(4, "big"))  # gamma 1.0: linear values
forms["rgb8"].save(here / "rgb8_gamma.png", pnginfo=gamma)


def filtered_rows(pixels, bpp):
    """Each row filtered by type (row % 5), with its type byte first."""
    height, stride = pixels.shape[0], pixels.shape[1] * pixels.shape[2]
    rows = pixels.reshape(height, stride).astype(np.int32)
    out = bytearray()
    for r in range(height):
        row, above = rows[r], rows[r - 1] if r else np.zeros(stride, np.int32)
        left = np.concatenate([np.zeros(bpp, np.int32), row[:-bpp]])
        upper_left = np.concatenate([np.zeros(bpp, np.int32), above[:-bpp]])
        kind = r % 5
        if kind == 0:
            predicted = np.zeros(stride, np.int32)
        elif kind == 1:
            predicted = left
        elif kind == 2:
            predicted = above
        elif kind == 3:
            predicted = (left + above) // 2
        else:
            p = left + above - upper_left
            pa, pb, pc = abs(p - left), abs(p - above), abs(p - upper_left)
            predicted = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, above, upper_left))
        out.append(kind)
        out += ((row - predicted) % 256).astype(np.uint8).tobytes()
    return bytes(out)


def chunk(kind, data):
    return len(data).to_bytes(4, "big") + kind + data + (zlib.crc32(kind + data) & 0xFFFFFFFF).to_bytes(4, "big")


import zlib  # noqa: E402

every_filter = np.dstack([rgb, alpha])
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes([8, 6, 0, 0, 0]))
png += chunk(b"IDAT", zlib.compress(filtered_rows(every_filter, 4), 9)) + chunk(b"IEND", b"")
(here / "rgba8_every_filter.png").write_bytes(png)
decoded = np.array(Image.open(here / "rgba8_every_filter.png").convert("RGBA"))
assert (decoded == every_filter).all(), "Pillow reads the hand-filtered rows back as made"
(here / "rgba8_every_filter.rgba").write_bytes(decoded.tobytes())
