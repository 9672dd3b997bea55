"""Blender, one process, for Scripts/bench-batch: imports each glTF given and exports it as usdz
into the folder given first, the scene emptied between files. Usage (Blender's Python):
blender_batch_usdz.py OUT_FOLDER FILE..."""
import os
import sys

import bpy

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    name = os.path.splitext(os.path.basename(path))[0] + ".usdz"
    bpy.ops.wm.usd_export(filepath=os.path.join(out, name))
