"""Loads a mesh file with trimesh and prints its triangle count: the reference read for
Scripts/bench-readers (process=False, as close to a plain read as trimesh allows)."""
import sys

import trimesh

scene = trimesh.load(sys.argv[1], force="scene", process=False)
print(sum(len(g.faces) for g in scene.dump() if hasattr(g, "faces")))
