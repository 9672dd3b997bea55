#!/usr/bin/env python3
"""Writes the OpenEXR environments beside this script with OpenEXR's own Python bindings (PyPI
`OpenEXR`), holding the same sky as sky_64.hdr (`Benchmarks/make_hdr_environment.py`), so a test can
read both and compare:
- sky_64.exr: scanline, half floats, ZIP (what Blender and most HDRI sites write);
- sky_64_tiled.exr: 16x16 tiles, 32-bit floats, PIZ, with an alpha channel and a data window that
  does not start at the origin;
- sky_64_luminance.exr: one Y channel (the sky's mean of R, G, B), PXR24.
usage: make_exr_environments.py  (needs numpy and OpenEXR)"""
import os
import sys

import numpy as np
import OpenEXR

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "Benchmarks"))
from make_hdr_environment import environment  # noqa: E402

sky = environment(64)


def tiles(size):
    description = OpenEXR.TileDescription()
    description.xSize, description.ySize, description.mode = size, size, OpenEXR.ONE_LEVEL
    return description


OpenEXR.File({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage},
             {"RGB": sky.astype(np.float16)}).write(os.path.join(here, "sky_64.exr"))

alpha = np.ones(sky.shape[:2], np.float32)
tiled = {"compression": OpenEXR.PIZ_COMPRESSION, "type": OpenEXR.tiledimage,
         "tiles": tiles(16),
         "dataWindow": (np.array([5, -3], np.int32), np.array([5 + 63, -3 + 31], np.int32)),
         "displayWindow": (np.array([5, -3], np.int32), np.array([5 + 63, -3 + 31], np.int32))}
OpenEXR.File(tiled, {"R": sky[..., 0].copy(), "G": sky[..., 1].copy(), "B": sky[..., 2].copy(), "A": alpha}).write(
    os.path.join(here, "sky_64_tiled.exr"))

OpenEXR.File({"compression": OpenEXR.PXR24_COMPRESSION, "type": OpenEXR.scanlineimage},
             {"Y": sky.mean(-1).astype(np.float32)}).write(os.path.join(here, "sky_64_luminance.exr"))
