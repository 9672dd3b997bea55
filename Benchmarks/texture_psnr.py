#!/usr/bin/env python3
"""Scores the textures a budget conversion of Benchmarks/make_sculpt.py's GLB wrote, for
Scripts/bench-optimize: each texture in the usdz is compared with the GLB's own texture brought to
the same size independently of assetc (numpy: averaged in linear light for the base colour,
averaged as vectors and made unit length again for the normal map), and the PSNR printed.
Usage: texture_psnr.py SOURCE.glb OUTPUT.usdz"""
import io
import json
import struct
import sys
import zipfile

import numpy as np
from PIL import Image


def glb_images(path):
    data = open(path, "rb").read()
    length = struct.unpack("<I", data[12:16])[0]
    gltf = json.loads(data[20:20 + length])
    binary = 20 + length + 8
    images = []
    for image in gltf["images"]:
        view = gltf["bufferViews"][image["bufferView"]]
        start = binary + view.get("byteOffset", 0)
        images.append(np.asarray(Image.open(io.BytesIO(data[start:start + view["byteLength"]])).convert("RGB"), np.float64) / 255)
    material = gltf["materials"][0]
    source = lambda reference: gltf["textures"][reference["index"]]["source"]
    return images[source(material["pbrMetallicRoughness"]["baseColorTexture"])], images[source(material["normalTexture"])]


def to_linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(c):
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.clip(c, 0, None) ** (1 / 2.4) - 0.055)


def shrunk(image, size):
    factor = image.shape[0] // size
    if factor * size != image.shape[0]:
        sys.exit(f"texture_psnr.py: {image.shape[0]} px is not a whole multiple of {size} px")
    return image.reshape(size, factor, size, factor, 3).mean(axis=(1, 3))


def main():
    colour, normals = glb_images(sys.argv[1])
    with zipfile.ZipFile(sys.argv[2]) as package:
        for name in sorted(n for n in package.namelist() if n.endswith((".png", ".jpg"))):
            texture = np.asarray(Image.open(io.BytesIO(package.read(name))).convert("RGB"), np.float64) / 255
            size = texture.shape[0]
            vectors = shrunk(normals * 2 - 1, size)
            vectors /= np.linalg.norm(vectors, axis=2, keepdims=True)
            references = {"base colour": to_srgb(shrunk(to_linear(colour), size)), "normal map": (vectors + 1) / 2}
            scores = {kind: 10 * np.log10(1 / ((texture - reference) ** 2).mean()) for kind, reference in references.items()}
            kind = max(scores, key=scores.get)
            print(f"{name}: {texture.shape[1]}x{size}, {kind}, PSNR {scores[kind]:.2f} dB against the source averaged down")


if __name__ == "__main__":
    main()
