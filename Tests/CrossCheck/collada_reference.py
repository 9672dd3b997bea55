"""The figures `assetc info --json` reports for a Collada file, as pycollada and assimp compute them;
the assimp helpers (placed triangles and lines, world box) serve the glTF, OBJ, STL and PLY
cross-checks too, since assimp reads every one of those formats.

pycollada: placed geometry (scene.objects('geometry'), and the geometry of every placed skin
(scene.objects('controller')) under its bind shape matrix, instance_node included as it binds them), positions per geometry with surfaces, triangles after its triangulation, line segments
of <lines> (pycollada 0.9 does not read <linestrips>), bounds of the transformed positions and line
ends, up axis and unit. assimp (`assimp info`): the triangle and line counts after its triangulation.
"""
import json
import math
import re
import subprocess
import sys

import numpy as np
import collada
from collada.common import DaeBrokenRefError, DaeUnsupportedError


def pycollada_figures(path):
    doc = collada.Collada(path, ignore=[DaeUnsupportedError, DaeBrokenRefError])
    out = {"meshes": 0, "points": 0, "triangles": 0, "segments": 0}
    lo = np.full(3, math.inf)
    hi = np.full(3, -math.inf)
    scene = doc.scene
    placed = []
    for bound in (scene.objects("geometry") if scene is not None else []):
        placed.append((bound, None))
    for skin in (scene.objects("controller") if scene is not None else []):
        if isinstance(skin, collada.controller.BoundSkin):
            # The geometry's vertices come placed by the node; the bind shape matrix applies first.
            node = np.asarray(skin.matrix, dtype=np.float64)
            shape = np.asarray(skin.skin.bind_shape_matrix, dtype=np.float64).reshape(4, 4)
            placed.append((skin.geometry, node @ shape @ np.linalg.inv(node)))
    for bound, correction in placed:
        primitives = [p for p in bound.primitives() if not isinstance(p, collada.lineset.BoundLineSet)]
        for lines in (p for p in bound.primitives() if isinstance(p, collada.lineset.BoundLineSet)):
            out["segments"] += len(lines)
            ends = np.array([line.vertices for line in lines.lines()], dtype=np.float64).reshape(-1, 3)
            finite = ends[np.isfinite(ends).all(axis=1)]
            if len(finite):
                lo = np.minimum(lo, finite.min(axis=0))
                hi = np.maximum(hi, finite.max(axis=0))
        if not primitives:
            continue
        out["meshes"] += 1
        vertex = np.asarray(primitives[0].vertex, dtype=np.float64).reshape(-1, 3)
        if correction is not None:
            vertex = (np.c_[vertex, np.ones(len(vertex))] @ correction.T)[:, :3]
        out["points"] += len(vertex)
        for primitive in primitives:
            if isinstance(primitive, collada.triangleset.BoundTriangleSet):
                out["triangles"] += len(primitive)
            else:
                out["triangles"] += len(primitive.triangleset())
        finite = vertex[np.isfinite(vertex).all(axis=1)]
        if len(finite):
            lo = np.minimum(lo, finite.min(axis=0))
            hi = np.maximum(hi, finite.max(axis=0))
    out["upAxis"] = {"X_UP": "X", "Y_UP": "Y", "Z_UP": "Z"}[doc.assetInfo.upaxis or "Y_UP"]
    out["metersPerUnit"] = float(doc.assetInfo.unitmeter or 1.0)
    out["bounds"] = None if not np.isfinite(lo).all() else {"min": lo.tolist(), "max": hi.tolist()}
    return out


def assimp_triangles(path, kind="triangle"):
    """Triangles (or, with kind="line", line segments) placed in the scene after assimp's import
    preset (which triangulates): each mesh's faces of that kind, counted once per node that places
    it (assimp's own total counts a mesh once)."""
    result = subprocess.run(["assimp", "info", path], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"assimp info failed: {result.stderr or result.stdout}")
    faces = {}
    for index, count, kinds in re.findall(r"^\s+(\d+) \(.*?\): \[\d+ / \d+ / (\d+) \| ([a-z ]+)\]$", result.stdout, re.M):
        faces[int(index)] = int(count) if kinds.strip() == kind else 0
    hierarchy = result.stdout.split("Node hierarchy:", 1)[-1]
    placed = 0
    for meshes in re.findall(r"\(mesh ([\d, ]+)\)", hierarchy):
        placed += sum(faces.get(int(m), 0) for m in meshes.split(","))
    return placed


def assimp_bounds(path):
    """The world box `assimp info` prints (its Minimum and Maximum point lines)."""
    out = subprocess.run(["assimp", "info", str(path)], capture_output=True, text=True, timeout=60).stdout
    low = [float(v) for v in re.search(r"Minimum point\s+\(([^)]*)\)", out).group(1).split()]
    high = [float(v) for v in re.search(r"Maximum point\s+\(([^)]*)\)", out).group(1).split()]
    return {"min": low, "max": high}


if __name__ == "__main__":
    figures = pycollada_figures(sys.argv[1])
    figures["assimpTriangles"] = assimp_triangles(sys.argv[1])
    print(json.dumps(figures, indent=2))
