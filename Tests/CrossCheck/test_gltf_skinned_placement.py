"""glTF places a skinned mesh by its joints alone; its node's transform and its parents' are ignored (glTF 2.0,
3.7.3.3). The pygltflib fixture (Tests/Fixtures/gltf/skin) gives the skinned node and its parent transforms of
their own and puts the joints 4 down z: assetc's bounds, at rest and posed, are where the specification's
skinning equation puts the points (computed here with numpy from pygltflib's reading), and stay there through
.glb and .usdz (usd-core's UsdSkel bakes the skinning of the latter). The Khronos validator's two files of the
form stand at the origin."""
import json

import numpy as np
import pygltflib
import pytest

from conftest import FIXTURES, ROOT, assetc_info, run_assetc

FIXTURE = FIXTURES / "gltf" / "skin" / "skinned_node_transform.gltf"
VALIDATOR_SKINS = ROOT.parent / "shared" / "conformance" / "gltf-validator" / "test" / "base" / "data" / "skin"


def quaternion_matrix(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def local(node, rotation=None):
    if node.matrix:
        return np.array(node.matrix, dtype=float).reshape(4, 4).T
    m = np.eye(4)
    m[:3, :3] = quaternion_matrix(rotation or node.rotation or [0, 0, 0, 1]) * np.array(node.scale or [1, 1, 1])
    m[:3, 3] = node.translation or [0, 0, 0]
    return m


def spec_bounds(time):
    """The skinned points' box as glTF's skinning equation gives it: sum of weight x joint world x inverse bind x
    point, with the one clip sampled linearly (slerp of two keys) at `time`."""
    gltf = pygltflib.GLTF2().load(str(FIXTURE))
    gltf.convert_buffers(pygltflib.BufferFormat.BINARYBLOB)
    data = gltf.binary_blob()

    def read(index, fmt, width):
        accessor = gltf.accessors[index]
        view = gltf.bufferViews[accessor.bufferView]
        values = np.frombuffer(data, dtype=fmt, count=accessor.count * width, offset=view.byteOffset + (accessor.byteOffset or 0))
        return values.reshape(accessor.count, width).astype(float)

    channel = gltf.animations[0].channels[0]
    keys = read(gltf.animations[0].samplers[0].output, "<f4", 4)
    key_times = read(gltf.animations[0].samplers[0].input, "<f4", 1)[:, 0]
    f = np.clip((time - key_times[0]) / (key_times[1] - key_times[0]), 0, 1)
    angle = np.arccos(np.clip(np.dot(keys[0], keys[1]), -1, 1))
    turned = keys[0] if angle == 0 else (np.sin((1 - f) * angle) * keys[0] + np.sin(f * angle) * keys[1]) / np.sin(angle)

    parents = {c: p for p, n in enumerate(gltf.nodes) for c in (n.children or [])}

    def world(index):
        m = local(gltf.nodes[index], list(turned) if index == channel.target.node else None)
        return world(parents[index]) @ m if index in parents else m

    skin = gltf.skins[0]
    inverse_binds = read(skin.inverseBindMatrices, "<f4", 16).reshape(-1, 4, 4).transpose(0, 2, 1)
    skinning = [world(j) @ inverse_binds[k] for k, j in enumerate(skin.joints)]
    primitive = gltf.meshes[0].primitives[0]
    points = read(primitive.attributes.POSITION, "<f4", 3)
    joints = read(primitive.attributes.JOINTS_0, "<u1", 4).astype(int)
    weights = read(primitive.attributes.WEIGHTS_0, "<f4", 4)
    placed = np.array([sum(w * (skinning[j] @ np.append(p, 1))[:3] for j, w in zip(js, ws)) for p, js, ws in zip(points, joints, weights)])
    return placed.min(axis=0), placed.max(axis=0)


def assert_box(bounds, expected, what):
    low, high = expected
    assert np.allclose(bounds["min"], low, atol=1e-5) and np.allclose(bounds["max"], high, atol=1e-5), \
        f"{what}: assetc {bounds}, the specification {low.tolist()} {high.tolist()}"


def test_the_joints_alone_place_the_mesh_at_rest():
    info = assetc_info(FIXTURE)
    assert_box(info["bounds"], spec_bounds(0), "rest")
    assert info["warnings"] == []


@pytest.mark.parametrize("time", [0.0, 0.5, 1.0])
def test_the_joints_alone_place_the_mesh_posed(time):
    result = run_assetc("info", "--json", "--time", str(time), FIXTURE)
    assert result.returncode == 0, result.stderr
    assert_box(json.loads(result.stdout)["bounds"], spec_bounds(time), f"posed at {time} s")


def test_glb_keeps_the_placement(tmp_path):
    out = tmp_path / "out.glb"
    assert run_assetc("convert", FIXTURE, out).returncode == 0
    assert_box(assetc_info(out)["bounds"], spec_bounds(0), "glb at rest")


def test_usdz_keeps_the_placement_as_usd_core_skins_it(tmp_path):
    from pxr import Usd, UsdGeom, UsdSkel
    out = tmp_path / "out.usdz"
    assert run_assetc("convert", FIXTURE, out).returncode == 0
    stage = Usd.Stage.Open(Usd.Stage.Open(str(out)).Flatten())
    UsdSkel.BakeSkinning(stage.Traverse())
    xforms = UsdGeom.XformCache(Usd.TimeCode(0))
    points = []
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh):
            world = xforms.GetLocalToWorldTransform(prim)
            points += [list(world.Transform(p)) for p in UsdGeom.Mesh(prim).GetPointsAttr().Get(Usd.TimeCode(0))]
    points = np.array(points)
    assert_box({"min": points.min(axis=0), "max": points.max(axis=0)}, spec_bounds(0), "usdz baked by usd-core")


@pytest.mark.skipif(not VALIDATOR_SKINS.is_dir(), reason="the glTF-Validator suite is not at ../shared/conformance")
@pytest.mark.parametrize("name", ["ignored_local_transform.gltf", "ignored_parent_transform.gltf"])
def test_the_validator_files_stand_at_the_origin(name):
    bounds = assetc_info(VALIDATOR_SKINS / name)["bounds"]
    assert bounds["min"] == [0, 0, 0] and bounds["max"] == [0, 0, 0], bounds
