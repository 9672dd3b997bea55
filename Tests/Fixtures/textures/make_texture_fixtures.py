#!/usr/bin/env python3
"""Writes the legacy-texture fixtures beside this script: one 32x32 picture (a colour ramp with a
checker and an alpha ramp) in each format game and DCC exporters hand assetc, written by Pillow
(TGA, BMP, TIFF with LZW, GIF, DDS as DXT1/DXT3/DXT5/BC5 and uncompressed RGBA), plus BC4 (its
red channel blocks taken from Pillow's BC5, which is two BC4 blocks per 4x4) and a PSD (Pillow reads
PSD but does not write it: a raw composite written here from Adobe's file format specification,
judged by Pillow's reader in the tests). Each has an OBJ and MTL (`quad_FORMAT.obj`) whose diffuse
map is that file, the model the conversion tests convert.
usage: make_texture_fixtures.py  (needs Pillow >= 11 and numpy)"""
import os
import struct

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
SIZE = 32


def picture():
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    checker = ((x // 8 + y // 8) % 2) * 60
    rgba = np.stack([x * 255 // (SIZE - 1), y * 255 // (SIZE - 1), 255 - checker * 2, 64 + x * 191 // (SIZE - 1)], -1)
    return Image.fromarray(rgba.astype(np.uint8), "RGBA")


def dds_header(width, height, four_cc=None, dxgi=None, bits=0, masks=(0, 0, 0, 0), flags_pf=0, linear=0):
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | (0x80000 if linear else 0x8)
    pf = struct.pack("<II4sI4I", 32, flags_pf, four_cc or b"\0\0\0\0", bits, *masks)
    header = struct.pack("<4sIIIIIII", b"DDS ", 124, flags, height, width, linear or width * 4, 0, 1) + bytes(44) + pf
    header += struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
    if dxgi is not None:
        header += struct.pack("<IIIII", dxgi, 3, 0, 1, 0)
    return header


def psd(image, path):
    """Adobe Photoshop file format, version 1: header, no colour mode data, no image resources, no
    layer section, then the composite as raw planar 8-bit channels (R, G, B). Opaque: Photoshop
    mattes a transparent composite against white, which readers undo or not as they choose."""
    rgb = np.asarray(image.convert("RGB"))
    with open(path, "wb") as f:
        f.write(struct.pack(">4sH6sHIIHH", b"8BPS", 1, bytes(6), 3, SIZE, SIZE, 8, 3))
        f.write(struct.pack(">III", 0, 0, 0))
        f.write(struct.pack(">H", 0))
        for c in range(3):
            f.write(rgb[..., c].tobytes())


def obj(format_name, texture):
    with open(os.path.join(here, f"quad_{format_name}.mtl"), "w") as f:
        f.write(f"newmtl textured\nKd 1 1 1\nmap_Kd {texture}\n")
    with open(os.path.join(here, f"quad_{format_name}.obj"), "w") as f:
        f.write(f"mtllib quad_{format_name}.mtl\n")
        f.write("v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\n")
        f.write("vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n")
        f.write("usemtl textured\nf 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n")


if __name__ == "__main__":
    image = picture()
    written = {
        "tga": ("picture.tga", lambda p: image.save(p)),
        "bmp": ("picture.bmp", lambda p: image.convert("RGB").save(p)),
        "tiff": ("picture.tif", lambda p: image.save(p, compression="tiff_lzw")),
        "gif": ("picture.gif", lambda p: image.convert("RGB").save(p)),
        "psd": ("picture.psd", lambda p: psd(image, p)),
        "dxt1": ("picture_dxt1.dds", lambda p: image.convert("RGB").save(p, pixel_format="DXT1")),
        "dxt3": ("picture_dxt3.dds", lambda p: image.save(p, pixel_format="DXT3")),
        "dxt5": ("picture_dxt5.dds", lambda p: image.save(p, pixel_format="DXT5")),
        "bc5": ("picture_bc5.dds", lambda p: image.convert("RGB").save(p, pixel_format="BC5")),
        "rgba": ("picture_rgba.dds", lambda p: image.save(p)),
    }
    for name, (file, write) in written.items():
        write(os.path.join(here, file))
        obj(name, file)
    # BC4: the first half of each 16-byte BC5 block is a BC4 block of the red channel.
    bc5 = open(os.path.join(here, "picture_bc5.dds"), "rb").read()
    start = 148 if bc5[84:88] == b"DX10" else 128
    blocks = bc5[start:start + (SIZE // 4) ** 2 * 16]
    red = b"".join(blocks[k:k + 8] for k in range(0, len(blocks), 16))
    with open(os.path.join(here, "picture_bc4.dds"), "wb") as f:
        f.write(dds_header(SIZE, SIZE, four_cc=b"ATI1", flags_pf=0x4, linear=len(red)) + red)
    obj("bc4", "picture_bc4.dds")
