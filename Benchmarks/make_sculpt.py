#!/usr/bin/env python3
"""Writes a sculpt-like GLB for Scripts/bench-optimize: an icosphere of 1,310,720 triangles with a
deterministic lumpy displacement and smooth normals, the kind of dense surface a scan or a sculpting
tool exports. Usage: make_sculpt.py OUT.glb"""
import sys

import numpy as np
import trimesh


def main():
    mesh = trimesh.creation.icosphere(subdivisions=8)
    v = mesh.vertices
    bumps = 0.06 * np.sin(7 * v[:, 0]) * np.cos(5 * v[:, 1]) + 0.03 * np.sin(13 * v[:, 2] + 1.0)
    mesh.vertices = v * (1 + bumps)[:, None]
    mesh.export(sys.argv[1])


if __name__ == "__main__":
    main()
