"""Writes the SPZ fixtures with Niantic's own library (PyPI alspz, built by
Tests/CrossCheck/splat_tools.py), from the 3DGS PLY fixtures beside this script, turned from the
PLY's rdf axes into SPZ's rub as Niantic's converter does (positions and quaternions mirrored in y
and z, the SH re-signed). Deterministic.

    python3 Tests/Fixtures/splats/make_splat_spz.py

- deg1_v2.spz (gzip, first-three quaternions), deg1_v3.spz (gzip, smallest-three) from inria_deg1_be.ply;
- deg3_v4.spz (NGSP header, zstd streams) from inria_deg3_le.ply.
"""
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "CrossCheck"))
from splat_reference import sh_basis  # noqa: E402
from splat_tools import alspz, ply_activated  # noqa: E402


def spz_bytes(ply, version):
    p, q, s, o, sh = ply_activated(HERE / ply)
    flip = np.array([1.0, -1.0, -1.0])
    d = np.array([0.3, 0.5, 0.81]) / np.linalg.norm([0.3, 0.5, 0.81])
    signs = (sh_basis(flip * d) / sh_basis(d))[: sh.shape[1]]
    sh = sh * signs[None, :, None]
    degree = int(round(np.sqrt(sh.shape[1]))) - 1
    data = alspz().save_spz((p * flip).astype(np.float32), np.log(s).astype(np.float32),
                            np.column_stack([q[:, 1:] * flip, q[:, 0]]).astype(np.float32),
                            np.log(o / (1 - o)).astype(np.float32), sh[:, 0].astype(np.float32),
                            np.clip(sh[:, 1:], -1, 1).reshape(len(p), -1).astype(np.float32), degree, version=version)
    return bytes(data)


def main():
    (HERE / "deg1_v2.spz").write_bytes(spz_bytes("inria_deg1_be.ply", 2))
    (HERE / "deg1_v3.spz").write_bytes(spz_bytes("inria_deg1_be.ply", 3))
    (HERE / "deg3_v4.spz").write_bytes(spz_bytes("inria_deg3_le.ply", 4))


if __name__ == "__main__":
    main()
