#!/usr/bin/env python3
"""Writes an equirectangular Radiance .hdr (flat RGBE, no run-length coding): a blue sky graded to
the horizon, a sun of radiance 2000 in a 1.5-degree disc, a brown ground. The environment the PBR
thumbnail benchmark lights with, for assetc and f3d alike.
usage: make_hdr_environment.py OUT.hdr [WIDTH]"""
import math
import sys

import numpy as np


def environment(width):
    height = width // 2
    y, x = np.mgrid[0:height, 0:width] + 0.5
    phi = (x / width - 0.5) * 2 * math.pi
    theta = y / height * math.pi
    d = np.stack([np.cos(phi) * np.sin(theta), np.cos(theta), np.sin(phi) * np.sin(theta)], -1)
    up = d[..., 1]
    sky = np.where(up[..., None] > 0, np.array([0.25, 0.45, 0.9]) * (0.4 + 0.6 * up[..., None]) + 0.3 * (1 - up[..., None]),
                   np.array([0.12, 0.09, 0.06]))
    sun = np.array([0.5, 0.6, -0.62])
    sun /= np.linalg.norm(sun)
    disc = (d @ sun) > math.cos(math.radians(1.5))
    sky[disc] = 2000
    return sky.astype(np.float32)


def rgbe(image):
    brightest = image.max(-1)
    mantissa, exponent = np.frexp(brightest)
    scale = np.where(brightest > 1e-32, mantissa * 256 / np.maximum(brightest, 1e-32), 0)
    out = np.zeros(image.shape[:2] + (4,), np.uint8)
    out[..., :3] = np.clip(image * scale[..., None], 0, 255).astype(np.uint8)
    out[..., 3] = np.where(brightest > 1e-32, exponent + 128, 0).astype(np.uint8)
    return out


if __name__ == "__main__":
    path = sys.argv[1]
    width = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    image = environment(width)
    with open(path, "wb") as f:
        f.write(f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {width // 2} +X {width}\n".encode())
        f.write(rgbe(image).tobytes())
