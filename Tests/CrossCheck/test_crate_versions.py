"""A crate file whose header claims an older version than the features it uses (issue 38): usd-core writes
each feature at its own version (a timecode value needs 0.9.0, a payload list op 0.8.0, a compressed integer
array 0.5.0); with the header's version bytes lowered, assetc refuses the file with a located error naming the
feature and the version it needs, and reads the file as written."""
import subprocess

import pytest
from pxr import Sdf

from conftest import assetc_binary


def write(path, fill):
    layer = Sdf.Layer.CreateNew(str(path))
    prim = Sdf.PrimSpec(layer, "Root", Sdf.SpecifierDef, "Xform")
    layer.defaultPrim = "Root"
    fill(layer, prim)
    layer.Save()


def timecode(layer, prim):
    Sdf.AttributeSpec(prim, "when", Sdf.ValueTypeNames.TimeCode).default = Sdf.TimeCode(5)


def payload(layer, prim):
    prim.payloadList.Prepend(Sdf.Payload("other.usda", "/Thing", Sdf.LayerOffset(2)))


def integers(layer, prim):
    # A mesh's indices, which assetc decodes (it reads values lazily, as it needs them).
    mesh = Sdf.PrimSpec(prim, "Strip", Sdf.SpecifierDef, "Mesh")
    n = 40
    Sdf.AttributeSpec(mesh, "points", Sdf.ValueTypeNames.Point3fArray).default = [(i, i % 2, 0) for i in range(n + 2)]
    Sdf.AttributeSpec(mesh, "faceVertexCounts", Sdf.ValueTypeNames.IntArray).default = [3] * n
    Sdf.AttributeSpec(mesh, "faceVertexIndices", Sdf.ValueTypeNames.IntArray).default = [i + k for i in range(n) for k in range(3)]


CASES = [(timecode, (0, 8, 0), "the header says crate version 0.8.0, but a timecode value needs 0.9.0"),
         (payload, (0, 7, 0), "the header says crate version 0.7.0, but a payloadListOp value needs 0.8.0"),
         (integers, (0, 4, 0), "where crate 0.4.0 writes 1: the header's version does not match the data"),
         # 0.5 and 0.6 read 32-bit counts: the newer 64-bit one makes the compressed data run past the file.
         (integers, (0, 5, 0), "compressed integer array claims")]


@pytest.mark.parametrize("fill,claimed,message", CASES, ids=[f"{c[0].__name__}-{'.'.join(map(str, c[1]))}" for c in CASES])
def test_a_header_older_than_its_features_is_refused(fill, claimed, message, tmp_path):
    honest, lying = tmp_path / "honest.usdc", tmp_path / "lying.usdc"
    write(honest, fill)
    data = bytearray(honest.read_bytes())
    assert tuple(data[8:11]) > claimed, f"usd-core wrote {tuple(data[8:11])}"
    data[8:11] = bytes(claimed)
    lying.write_bytes(bytes(data))
    read = subprocess.run([assetc_binary(), "info", str(honest)], capture_output=True, text=True, timeout=30)
    assert read.returncode == 0, read.stderr
    refused = subprocess.run([assetc_binary(), "info", str(lying)], capture_output=True, text=True, timeout=30)
    assert refused.returncode != 0 and message in refused.stderr, refused.stderr
    assert "byte offset" in refused.stderr, "the error is located"
