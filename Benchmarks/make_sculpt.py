#!/usr/bin/env python3
"""Writes a sculpt-like GLB for Scripts/bench-optimize: an icosphere of 1,310,720 triangles with a
deterministic lumpy displacement and smooth normals, the kind of dense surface a scan or a sculpting
tool exports, with spherical texture coordinates and two 4096 px textures (a base colour and a
normal map, both PNG). Usage: make_sculpt.py OUT.glb"""
import sys

import numpy as np
import trimesh
from PIL import Image


def main():
    mesh = trimesh.creation.icosphere(subdivisions=8)
    v = mesh.vertices
    bumps = 0.06 * np.sin(7 * v[:, 0]) * np.cos(5 * v[:, 1]) + 0.03 * np.sin(13 * v[:, 2] + 1.0)
    mesh.vertices = v * (1 + bumps)[:, None]
    unit = v / np.linalg.norm(v, axis=1)[:, None]
    uv = np.stack([0.5 + np.arctan2(unit[:, 2], unit[:, 0]) / (2 * np.pi), 0.5 + np.arcsin(unit[:, 1]) / np.pi], axis=1)
    y, x = np.mgrid[0:4096, 0:4096].astype(np.float32) / 4096
    colour = np.stack([0.5 + 0.5 * np.sin(40 * x), 0.5 + 0.5 * np.cos(30 * y), 0.3 + 0 * x], -1)
    normal = np.stack([0.5 + 0.2 * np.sin(60 * x), 0.5 + 0.2 * np.cos(60 * y), 0.9 + 0 * x], -1)
    material = trimesh.visual.material.PBRMaterial(
        baseColorTexture=Image.fromarray((colour * 255).astype(np.uint8)),
        normalTexture=Image.fromarray((normal * 255).astype(np.uint8)), metallicFactor=0, roughnessFactor=0.6)
    mesh.visual = trimesh.visual.TextureVisuals(uv=uv, material=material)
    mesh.export(sys.argv[1])


if __name__ == "__main__":
    main()
