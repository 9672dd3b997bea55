"""Writes the 3DGS PLY fixtures with plyfile (the library the INRIA trainer itself saves with), so the
splat readers are tested on files shaped by other hands than assetc's. Deterministic: the same
numbers every run.

    python3 Tests/Fixtures/splats/make_splat_fixtures.py

- inria_deg3_le.ply: 64 splats, SH degree 3, binary little endian, the trainer's exact property order
  (x y z nx ny nz f_dc_0..2 f_rest_0..44 opacity scale_0..2 rot_0..3), log scales, logit opacities.
- inria_deg1_be.ply: 40 splats, degree 1, binary big endian.
- inria_deg0_ascii.ply: 12 splats, degree 0, ASCII.
- surfels_2dgs.ply: 20 2DGS surfels (scale_0, scale_1, no scale_2), degree 0.
- rgb_splats.ply: 16 splats coloured by uchar red/green/blue instead of f_dc.
- khr_deg1.glb, a seed for Scripts/fuzz gltf only (no test reads it as a reference): made afterwards by
  `assetc convert inria_deg1_be.ply khr_deg1.glb`.
- upright_capture.ply: a 'capture' in COLMAP's axes (y down): 300 splats on a vertical pole whose top
  (y = -2 in the file) is red and whose foot (y = 0) is blue, standing on a green ground disc.
"""
import pathlib

import numpy as np
from plyfile import PlyData, PlyElement

HERE = pathlib.Path(__file__).resolve().parent


def splats(rng, n, degree, *, surfels=False):
    rest = 3 * ((degree + 1) ** 2 - 1)
    fields = {
        "x": rng.uniform(-1, 1, n), "y": rng.uniform(-1, 1, n), "z": rng.uniform(-1, 1, n),
        "nx": np.zeros(n), "ny": np.zeros(n), "nz": np.zeros(n),
        "f_dc_0": rng.normal(0, 1, n), "f_dc_1": rng.normal(0, 1, n), "f_dc_2": rng.normal(0, 1, n),
    }
    for k in range(rest):
        fields[f"f_rest_{k}"] = rng.normal(0, 0.2, n)
    fields["opacity"] = rng.normal(0, 2, n)
    for k in range(2 if surfels else 3):
        fields[f"scale_{k}"] = rng.uniform(-5, -1, n)
    # Not normalised, as trainers leave them.
    for k in range(4):
        fields[f"rot_{k}"] = rng.normal(0, 1, n)
    return fields


def save(name, fields, *, text=False, byte_order="<"):
    n = len(next(iter(fields.values())))
    dtype = [(key, "u1" if key in ("red", "green", "blue") else "f4") for key in fields]
    data = np.empty(n, dtype=dtype)
    for key, values in fields.items():
        data[key] = values
    PlyData([PlyElement.describe(data, "vertex")], text=text, byte_order=byte_order).write(str(HERE / name))


def upright_capture(rng):
    n_pole, n_ground = 100, 200
    y = np.concatenate([np.linspace(-2, 0, n_pole), np.zeros(n_ground)])
    angle, radius = rng.uniform(0, 2 * np.pi, n_ground), np.sqrt(rng.uniform(0, 1, n_ground)) * 1.5
    x = np.concatenate([np.zeros(n_pole), radius * np.cos(angle)])
    z = np.concatenate([np.zeros(n_pole), radius * np.sin(angle)])
    c0 = 0.28209479177387814
    t = np.linspace(1, 0, n_pole)  # 1 at the top (y = -2), 0 at the foot
    colour = np.concatenate([np.stack([t, np.zeros(n_pole), 1 - t], 1), np.tile([0.1, 0.8, 0.1], (n_ground, 1))])
    fields = {"x": x, "y": y, "z": z, "nx": np.zeros(len(x)), "ny": np.zeros(len(x)), "nz": np.zeros(len(x))}
    for k in range(3):
        fields[f"f_dc_{k}"] = (colour[:, k] - 0.5) / c0
    fields["opacity"] = np.full(len(x), 4.0)
    for k in range(3):
        fields[f"scale_{k}"] = np.full(len(x), np.log(0.06))
    for k, v in enumerate((1, 0, 0, 0)):
        fields[f"rot_{k}"] = np.full(len(x), float(v))
    return fields


def main():
    rng = np.random.default_rng(60)
    save("inria_deg3_le.ply", splats(rng, 64, 3))
    save("inria_deg1_be.ply", splats(rng, 40, 1), byte_order=">")
    save("inria_deg0_ascii.ply", splats(rng, 12, 0), text=True)
    save("surfels_2dgs.ply", splats(rng, 20, 0, surfels=True))
    rgb = splats(rng, 16, 0)
    for k in range(3):
        del rgb[f"f_dc_{k}"]
    rgb.update(red=rng.integers(0, 256, 16), green=rng.integers(0, 256, 16), blue=rng.integers(0, 256, 16))
    save("rgb_splats.ply", rgb)
    save("upright_capture.ply", upright_capture(rng))


if __name__ == "__main__":
    main()
