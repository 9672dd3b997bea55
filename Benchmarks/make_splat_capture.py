"""Writes a synthetic 3DGS capture for Scripts/bench-splats: COUNT splats of SH degree 3 in the INRIA
PLY layout (plyfile, binary little endian), spread over a few blobby shapes so thumbnails hold
overlapping splats of many sizes the way captures do, and the same splats as SPZ v2 (Niantic's
library, alspz) for f3d, which reads v2 correctly. Deterministic.

    python3 Benchmarks/make_splat_capture.py OUT.ply COUNT [OUT.spz]
"""
import sys
from pathlib import Path

import numpy as np
from plyfile import PlyData, PlyElement

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "CrossCheck"))


def main():
    out, count = Path(sys.argv[1]), int(sys.argv[2])
    rng = np.random.default_rng(2026)
    centres = rng.normal(size=(8, 3)) * 1.5
    which = rng.integers(0, 8, count)
    positions = centres[which] + rng.normal(size=(count, 3)) * rng.uniform(0.2, 0.8, (8, 1))[which]
    names = ["x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"] + [f"f_rest_{k}" for k in range(45)] \
        + ["opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"]
    data = np.zeros(count, dtype=[(n, "f4") for n in names])
    for k, axis in enumerate("xyz"):
        data[axis] = positions[:, k]
    palette = rng.normal(0, 1.2, (8, 3))
    for c in range(3):
        data[f"f_dc_{c}"] = palette[which, c] + rng.normal(0, 0.2, count)
    for k in range(45):
        data[f"f_rest_{k}"] = rng.normal(0, 0.08, count)
    data["opacity"] = rng.normal(1.5, 2, count)
    size = np.log(2.0 / np.cbrt(count))
    for k in range(3):
        data[f"scale_{k}"] = size + rng.normal(0, 0.6, count)
    for k in range(4):
        data[f"rot_{k}"] = rng.normal(size=count)
    PlyData([PlyElement.describe(data, "vertex")]).write(str(out))
    if len(sys.argv) > 3:
        from splat_tools import alspz
        q = np.stack([data[f"rot_{k}"] for k in range(4)], 1)
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        from splat_reference import sh_basis
        flip = np.array([1, -1, -1], np.float32)  # SPZ is rub, the PLY rdf: as assetc reads it
        d = np.array([0.3, 0.5, 0.81]) / np.linalg.norm([0.3, 0.5, 0.81])
        signs = (sh_basis(flip * d) / sh_basis(d))[1:]  # each basis function's parity under the flip
        rest = np.stack([data[f"f_rest_{c * 15 + k}"] * signs[k] for k in range(15) for c in range(3)], 1)
        spz = alspz().save_spz(positions.astype(np.float32) * flip,
                               np.stack([data[f"scale_{k}"] for k in range(3)], 1).astype(np.float32),
                               np.column_stack([q[:, 1:] * flip, q[:, 0]]).astype(np.float32),
                               data["opacity"].astype(np.float32),
                               np.stack([data[f"f_dc_{c}"] for c in range(3)], 1).astype(np.float32),
                               np.clip(rest, -1, 1).astype(np.float32), 3, version=2)
        Path(sys.argv[3]).write_bytes(bytes(spz))


if __name__ == "__main__":
    main()
