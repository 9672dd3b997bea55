"""Draco-compressed spheres (make_draco_spheres.py: libdraco quantizing floats to 8 and 14 bits, Debian's
draco_encoder, and glTF-Transform's shape of already-quantized normalized integers that Draco stores as they
are) read back as their uncompressed source: every point assetc writes to usda, placed in the world by
usd-core, lies on the source sphere within the quantization step, and the bounds match the source's as
numpy computes them from the glTF's own bytes. A file whose decoded data leaves its accessor's min/max says so."""
import base64
import json
import subprocess

import numpy
import pytest
from pxr import Usd, UsdGeom

from conftest import FIXTURES, assetc_binary, assetc_info

FOLDER = FIXTURES / "gltf" / "draco"
# The worst position error each encoding allows: half a step of the quantization grid over the
# sphere's 1.84 extent (8 and 11 bits), and int16 normalization's half step of 0.92 / 32767.
STEP = {"sphere_draco_q8.gltf": 1.84 / 255, "sphere_draco_q14.gltf": 1.84 / 16383,
        "sphere_draco_encoder.gltf": 1.84 / 2047, "sphere_draco_int16.gltf": 0.92 / 32767}


def source_points():
    """The uncompressed sphere's positions straight from its buffer (numpy, not assetc)."""
    doc = json.loads((FOLDER / "sphere.gltf").read_text())
    data = base64.b64decode(doc["buffers"][0]["uri"].split(",", 1)[1])
    accessor = doc["accessors"][doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]]
    start = accessor.get("byteOffset", 0)
    return numpy.frombuffer(data, dtype="<f4", count=3 * accessor["count"], offset=start).reshape(-1, 3).astype(float)


def world_points(path, tmp_path):
    out = tmp_path / (path.stem + ".usda")
    subprocess.run([assetc_binary(), "convert", "--force", str(path), str(out)], check=True, capture_output=True)
    stage = Usd.Stage.Open(str(out))
    points, normals = [], []
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh):
            mesh = UsdGeom.Mesh(prim)
            world = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
            points += [tuple(world.Transform(p)) for p in mesh.GetPointsAttr().Get()]
            normals += [tuple(n) for n in (mesh.GetNormalsAttr().Get() or [])]
    return numpy.array(points), numpy.array(normals)


@pytest.mark.parametrize("name", sorted(STEP))
def test_a_draco_sphere_reads_as_its_source(name, tmp_path):
    source = source_points()
    found, normals = world_points(FOLDER / name, tmp_path)
    tolerance = STEP[name] * 0.87 + 1e-6  # half a step on each of three axes
    # draco_encoder merges the poles' repeated points, so the comparison runs both ways rather than by count.
    apart = numpy.sqrt(((found[:, None, :] - source[None, :, :]) ** 2).sum(axis=2))
    assert apart.min(axis=1).max() <= tolerance, f"{name}: a point lies {apart.min(axis=1).max():.6f} from the source"
    assert apart.min(axis=0).max() <= tolerance, f"{name}: a source point lies {apart.min(axis=0).max():.6f} from every point read"
    info = assetc_info(FOLDER / name)
    assert info["warnings"] == []
    for corner, reference in (("min", source.min(axis=0)), ("max", source.max(axis=0))):
        assert numpy.allclose(info["bounds"][corner], reference, atol=tolerance), f"{corner}: {info['bounds']} vs {reference}"
    if len(normals):
        lengths = numpy.linalg.norm(normals, axis=1)
        assert numpy.all(abs(lengths - 1) < 0.02), f"{name}: normals of length {lengths.min():.3f}..{lengths.max():.3f}"


def test_decoded_data_outside_the_accessor_range_is_named():
    info = assetc_info(FOLDER / "sphere_draco_wrong_range.gltf")
    assert any("Draco attribute POSITION decodes" in w and "min/max" in w for w in info["warnings"]), info["warnings"]
