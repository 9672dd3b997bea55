"""glTF animation figures from pygltflib's reading of the file, and the pose at a time computed here
from the specification (node TRS sampled per channel with LINEAR, STEP or CUBICSPLINE; morph
targets added by weight; joints' world matrices times inverse bind matrices, weighted per vertex),
independently of assetc's Swift code, for `assetc info --time` to be checked against."""
import base64
import math

import numpy as np
import pygltflib

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
DTYPES = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}


def load(path):
    gltf = pygltflib.GLTF2().load(str(path))
    blob = gltf.binary_blob()
    buffers = []
    for buffer in gltf.buffers:
        if buffer.uri and buffer.uri.startswith("data:"):
            buffers.append(base64.b64decode(buffer.uri.split(",", 1)[1]))
        elif buffer.uri:
            buffers.append((path.parent / buffer.uri).read_bytes())
        else:
            buffers.append(blob)
    return gltf, buffers


def accessor(gltf, buffers, index):
    a = gltf.accessors[index]
    n = COMPONENTS[a.type]
    values = np.zeros((a.count, n), dtype=np.float64)
    if a.bufferView is not None:
        view = gltf.bufferViews[a.bufferView]
        dtype = np.dtype(DTYPES[a.componentType])
        stride = view.byteStride or dtype.itemsize * n
        data = buffers[view.buffer]
        start = (view.byteOffset or 0) + (a.byteOffset or 0)
        for i in range(a.count):
            values[i] = np.frombuffer(data, dtype=dtype, count=n, offset=start + i * stride)
    if a.sparse:
        s = a.sparse
        iv, vv = gltf.bufferViews[s.indices.bufferView], gltf.bufferViews[s.values.bufferView]
        idx = np.frombuffer(buffers[iv.buffer], dtype=DTYPES[s.indices.componentType], count=s.count,
                            offset=(iv.byteOffset or 0) + (s.indices.byteOffset or 0))
        val = np.frombuffer(buffers[vv.buffer], dtype=DTYPES[a.componentType], count=s.count * n,
                            offset=(vv.byteOffset or 0) + (s.values.byteOffset or 0)).reshape(-1, n)
        values[idx.astype(int)] = val
    if a.normalized and a.componentType != 5126:
        values = values / float(np.iinfo(DTYPES[a.componentType]).max)
    return values


def counts(path):
    gltf, buffers = load(path)
    durations = []
    for animation in gltf.animations:
        times = [t for s in animation.samplers for t in accessor(gltf, buffers, s.input)[:, 0]]
        durations.append(max(times) - min(times))
    used = [n for n in gltf.nodes if n.mesh is not None]
    return {"skeletons": len(gltf.skins), "joints": sum(len(s.joints) for s in gltf.skins),
            "skinnedMeshes": sum(len(gltf.meshes[n.mesh].primitives) for n in used if n.skin is not None),
            "blendShapes": sum(len(p.targets or []) for m in gltf.meshes for p in m.primitives),
            "animations": len(gltf.animations), "duration": max(durations, default=0.0)}


def quat_matrix(x, y, z, w):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def slerp(a, b, t):
    d = float(np.dot(a, b))
    if d < 0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + t * (b - a)
    else:
        angle = math.acos(d)
        q = (math.sin((1 - t) * angle) * a + math.sin(t * angle) * b) / math.sin(angle)
    return q / np.linalg.norm(q)


def sample(times, values, interpolation, t, rotation):
    keys = len(times)
    if interpolation == "CUBICSPLINE":
        values = values.reshape(keys, 3, -1)
        value = lambda k: values[k, 1]  # noqa: E731
    else:
        values = values.reshape(keys, -1)
        value = lambda k: values[k]  # noqa: E731
    if t <= times[0]:
        return value(0)
    if t >= times[-1]:
        return value(keys - 1)
    k = int(np.searchsorted(times, t, side="right")) - 1
    span = times[k + 1] - times[k]
    f = (t - times[k]) / span
    if interpolation == "STEP":
        return value(k)
    if interpolation == "CUBICSPLINE":
        f2, f3 = f * f, f * f * f
        v = ((2 * f3 - 3 * f2 + 1) * values[k, 1] + (f3 - 2 * f2 + f) * span * values[k, 2]
             + (-2 * f3 + 3 * f2) * values[k + 1, 1] + (f3 - f2) * span * values[k + 1, 0])
        return v / np.linalg.norm(v) if rotation else v
    if rotation:
        return slerp(values[k], values[k + 1], f)
    return values[k] + f * (values[k + 1] - values[k])


def posed_bounds(path, t, clip=0):
    gltf, buffers = load(path)
    trs = {}
    for i, node in enumerate(gltf.nodes):
        trs[i] = {"translation": np.array(node.translation or [0, 0, 0], float), "rotation": np.array(node.rotation or [0, 0, 0, 1], float),
                  "scale": np.array(node.scale or [1, 1, 1], float), "weights": None}
    if gltf.animations:
        animation = gltf.animations[clip]
        for channel in animation.channels:
            s = animation.samplers[channel.sampler]
            times = accessor(gltf, buffers, s.input)[:, 0]
            values = accessor(gltf, buffers, s.output).reshape(-1)
            trs[channel.target.node][channel.target.path] = sample(times, values, s.interpolation or "LINEAR", t,
                                                                     channel.target.path == "rotation")

    def local(i):
        node = gltf.nodes[i]
        if node.matrix:
            return np.array(node.matrix, float).reshape(4, 4).T
        m = np.eye(4)
        m[:3, :3] = quat_matrix(*trs[i]["rotation"]) @ np.diag(trs[i]["scale"])
        m[:3, 3] = trs[i]["translation"]
        return m

    world = {}
    scene = gltf.scenes[gltf.scene or 0]
    stack = [(i, np.eye(4)) for i in scene.nodes]
    while stack:
        i, parent = stack.pop()
        world[i] = parent @ local(i)
        stack += [(c, world[i]) for c in gltf.nodes[i].children or []]

    lo, hi = np.full(3, math.inf), np.full(3, -math.inf)
    for i in world:
        node = gltf.nodes[i]
        if node.mesh is None:
            continue
        mesh = gltf.meshes[node.mesh]
        for primitive in mesh.primitives:
            points = accessor(gltf, buffers, primitive.attributes.POSITION)
            weights = trs[i]["weights"]
            if weights is None:
                weights = getattr(node, "weights", None) or mesh.weights or []  # pygltflib 1.x has no Node.weights
            for w, target in zip(weights, primitive.targets or []):
                if "POSITION" in target:
                    points = points + w * accessor(gltf, buffers, target["POSITION"])
            homogeneous = np.c_[points, np.ones(len(points))]
            if node.skin is not None:
                skin = gltf.skins[node.skin]
                ibm = accessor(gltf, buffers, skin.inverseBindMatrices).reshape(-1, 4, 4).transpose(0, 2, 1)
                joints = accessor(gltf, buffers, primitive.attributes.JOINTS_0).astype(int)
                wts = accessor(gltf, buffers, primitive.attributes.WEIGHTS_0)
                skinning = np.array([world[j] @ ibm[k] for k, j in enumerate(skin.joints)])
                placed = np.zeros((len(points), 4))
                for c in range(4):
                    placed += wts[:, c:c + 1] * np.einsum("nij,nj->ni", skinning[joints[:, c]], homogeneous)
            else:
                placed = homogeneous @ world[i].T
            lo, hi = np.minimum(lo, placed[:, :3].min(0)), np.maximum(hi, placed[:, :3].max(0))
    return {"min": lo.tolist(), "max": hi.tolist()}
