#!/usr/bin/env python3
"""tinyusdz (its PyPI build) on the same file: load the stage, which parses every attribute value,
and visit the meshes. Its Python binding gives no array access, so topology is not summed as
usd_core_read.py does; the load is where the reading happens. Prints the seconds inside Python."""
import sys
import time

start = time.perf_counter()
import tinyusdz  # noqa: E402

stage = tinyusdz.load(sys.argv[1])
meshes = 0
for prim in tinyusdz.traverse(stage):
    if prim.type_name == "Mesh" and prim.get_attribute("points").value.is_array:
        meshes += 1
print(f"tinyusdz: {meshes} meshes, {time.perf_counter() - start:.3f} s inside Python")
