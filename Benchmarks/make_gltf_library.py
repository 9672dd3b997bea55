#!/usr/bin/env python3
"""Writes a folder of small GLB files for Scripts/bench-batch: COUNT meshes made with trimesh
(icospheres, boxes, cylinders, capsules and tori of varying detail, 80 to 20,000 triangles each),
each with a material colour. Deterministic. Usage: make_gltf_library.py FOLDER COUNT"""
import sys
from pathlib import Path

import numpy as np
import trimesh


def shape(k):
    kind = k % 5
    if kind == 0:
        return trimesh.creation.icosphere(subdivisions=1 + k % 5)
    if kind == 1:
        return trimesh.creation.box(extents=(1 + k % 3, 1, 0.5 + k % 2))
    if kind == 2:
        return trimesh.creation.cylinder(radius=0.5, height=2, sections=16 + 8 * (k % 12))
    if kind == 3:
        return trimesh.creation.capsule(height=1.5, radius=0.4, count=[16 + 4 * (k % 8), 16 + 4 * (k % 8)])
    return trimesh.creation.torus(major_radius=1, minor_radius=0.3, major_sections=24 + 8 * (k % 8), minor_sections=12 + 4 * (k % 6))


def main():
    folder, count = Path(sys.argv[1]), int(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        mesh = shape(k)
        colour = np.array([(37 * k) % 255, (91 * k) % 255, (173 * k) % 255, 255], dtype=np.uint8)
        mesh.visual = trimesh.visual.ColorVisuals(mesh, face_colors=np.tile(colour, (len(mesh.faces), 1)))
        mesh.export(folder / f"asset-{k:04d}.glb")


if __name__ == "__main__":
    main()
