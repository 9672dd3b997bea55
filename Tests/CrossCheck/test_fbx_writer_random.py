"""Random glTF scenes (meshes, a skin over a chain of joints, morph targets, clips of translation, rotation and
weights), written by pygltflib, converted to FBX by assetc and read by ufbx, the reader Godot uses: the triangles,
bones, every vertex weighted with sums of 1, blend-shape channels and one stack per clip with its length, as the
glTF holds them. Seeded, so a failing scene can be made again."""
import math
import random

import numpy as np
import pygltflib
import pytest

from conftest import run_assetc
from fbx_judges import ufbx_view

FLOAT, UINT, USHORT = 5126, 5125, 5123


class Builder:
    def __init__(self):
        self.gltf = pygltflib.GLTF2(asset=pygltflib.Asset(version="2.0"), scene=0, scenes=[pygltflib.Scene(nodes=[])])
        self.blob = bytearray()

    def accessor(self, array, kind, component=FLOAT, minmax=False):
        array = np.ascontiguousarray(array)
        while len(self.blob) % 4:
            self.blob.append(0)
        view = pygltflib.BufferView(buffer=0, byteOffset=len(self.blob), byteLength=array.nbytes)
        self.blob += array.tobytes()
        self.gltf.bufferViews.append(view)
        accessor = pygltflib.Accessor(bufferView=len(self.gltf.bufferViews) - 1, componentType=component, count=len(array), type=kind)
        if minmax:
            accessor.min, accessor.max = array.min(axis=0).tolist(), array.max(axis=0).tolist()
        self.gltf.accessors.append(accessor)
        return len(self.gltf.accessors) - 1

    def save(self, path):
        self.gltf.buffers = [pygltflib.Buffer(byteLength=len(self.blob))]
        self.gltf.set_binary_blob(bytes(self.blob))
        self.gltf.save_binary(str(path))


def random_scene(seed, path):
    rng = random.Random(seed)
    b = Builder()
    expected = {"triangles": 0, "bones": 0, "blendChannels": 0, "clips": {}}
    mesh_nodes = []
    for m in range(rng.randint(1, 3)):
        triangles = rng.randint(4, 40)
        positions = np.array([[rng.uniform(-1, 1) for _ in range(3)] for _ in range(triangles * 3)], dtype=np.float32)
        attributes = pygltflib.Attributes(POSITION=b.accessor(positions, "VEC3", minmax=True))
        primitive = pygltflib.Primitive(attributes=attributes, indices=b.accessor(np.arange(triangles * 3, dtype=np.uint32), "SCALAR", UINT))
        targets = rng.randint(0, 2)
        if targets:
            primitive.targets = [{"POSITION": b.accessor((np.random.default_rng(seed + t).random((triangles * 3, 3)) * 0.2).astype(np.float32), "VEC3", minmax=True)}
                                 for t in range(targets)]
        mesh = pygltflib.Mesh(name=f"mesh{m}", primitives=[primitive], weights=[0.0] * targets if targets else None,
                              extras={"targetNames": [f"m{m}t{t}" for t in range(targets)]} if targets else {})
        b.gltf.meshes.append(mesh)
        b.gltf.nodes.append(pygltflib.Node(name=f"node{m}", mesh=len(b.gltf.meshes) - 1,
                                           translation=[rng.uniform(-2, 2) for _ in range(3)]))
        b.gltf.scenes[0].nodes.append(len(b.gltf.nodes) - 1)
        mesh_nodes.append((len(b.gltf.nodes) - 1, triangles, targets))
        expected["triangles"] += triangles
        expected["blendChannels"] += targets
    joints = []
    if rng.random() < 0.6:
        count = rng.randint(2, 4)
        for j in range(count):
            b.gltf.nodes.append(pygltflib.Node(name=f"joint{j}", translation=[0, 0.5 if j else 0, 0]))
            joints.append(len(b.gltf.nodes) - 1)
            if j:
                b.gltf.nodes[joints[j - 1]].children = [joints[j]]
        b.gltf.scenes[0].nodes.append(joints[0])
        node, triangles, _ = mesh_nodes[0]
        n = triangles * 3
        inverse_binds = []
        for j in range(count):
            m = np.eye(4, dtype=np.float32)
            m[3, 1] = -0.5 * j  # column-major: the translation's y
            inverse_binds.append(m.flatten())
        b.gltf.skins.append(pygltflib.Skin(joints=joints, inverseBindMatrices=b.accessor(np.array(inverse_binds, dtype=np.float32), "MAT4")))
        first = np.array([rng.randrange(count) for _ in range(n)])
        joint_ids = np.stack([first, (first + 1) % count, np.zeros(n, int), np.zeros(n, int)], axis=1).astype(np.uint16)
        w = np.array([rng.uniform(0.2, 0.8) for _ in range(n)], dtype=np.float32)
        weights = np.stack([w, 1 - w, np.zeros(n), np.zeros(n)], axis=1).astype(np.float32)
        primitive = b.gltf.meshes[b.gltf.nodes[node].mesh].primitives[0]
        primitive.attributes.JOINTS_0 = b.accessor(joint_ids, "VEC4", USHORT)
        primitive.attributes.WEIGHTS_0 = b.accessor(weights, "VEC4")
        b.gltf.nodes[node].skin = 0
        expected["bones"] = count
    for c in range(rng.randint(0, 2)):
        keys = rng.randint(2, 5)
        times = np.cumsum([0.0] + [rng.uniform(0.2, 0.6) for _ in range(keys - 1)]).astype(np.float32)
        target = rng.choice(joints or [n for n, _, _ in mesh_nodes])
        sampler_t = pygltflib.AnimationSampler(input=b.accessor(times, "SCALAR"), output=b.accessor(
            np.array([[rng.uniform(-1, 1) for _ in range(3)] for _ in range(keys)], dtype=np.float32), "VEC3"),
            interpolation=rng.choice(["LINEAR", "STEP"]))
        angles = np.cumsum([rng.uniform(-1, 1) for _ in range(keys)])
        quats = np.array([[0, math.sin(a / 2), 0, math.cos(a / 2)] for a in angles], dtype=np.float32)
        sampler_r = pygltflib.AnimationSampler(input=sampler_t.input, output=b.accessor(quats, "VEC4"))
        animation = pygltflib.Animation(name=f"clip{c}", samplers=[sampler_t, sampler_r], channels=[
            pygltflib.AnimationChannel(sampler=0, target=pygltflib.AnimationChannelTarget(node=target, path="translation")),
            pygltflib.AnimationChannel(sampler=1, target=pygltflib.AnimationChannelTarget(node=target, path="rotation"))])
        morphing = [(n, t) for n, _, t in mesh_nodes if t]
        if morphing:
            node, targets = morphing[0]
            animation.samplers.append(pygltflib.AnimationSampler(input=sampler_t.input, output=b.accessor(
                np.array([rng.random() for _ in range(keys * targets)], dtype=np.float32), "SCALAR")))
            animation.channels.append(pygltflib.AnimationChannel(sampler=2, target=pygltflib.AnimationChannelTarget(node=node, path="weights")))
        b.gltf.animations.append(animation)
        expected["clips"][f"clip{c}"] = float(times[-1] - times[0])
    b.save(path)
    return expected


@pytest.mark.parametrize("seed", range(12))
def test_a_random_scene_reads_in_ufbx_as_the_gltf_holds_it(tmp_path, seed):
    expected = random_scene(seed, tmp_path / "scene.glb")
    result = run_assetc("convert", str(tmp_path / "scene.glb"), str(tmp_path / "scene.fbx"))
    assert result.returncode == 0, result.stderr
    view = ufbx_view(tmp_path / "scene.fbx")
    assert view["triangles"] == expected["triangles"]
    assert view["bones"] == expected["bones"]
    assert view["unweighted"] == 0 and view["badSums"] == 0
    assert view["bindPoseHoldsBones"]
    assert len(view["blendChannels"]) == expected["blendChannels"]
    assert sorted(view["stacks"]) == sorted(expected["clips"])
    for name, length in expected["clips"].items():
        assert abs(view["stacks"][name] - length) < 1e-3, name
    assert view["smoothing"]
