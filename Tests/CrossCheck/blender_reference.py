"""Blender as a judge: runs a script under the bpy that Scripts/setup-reference-tools installs in
.build/reference/blender, with the script's JSON answer on its last stdout line. Blender prints its own
chatter on stdout, so answers are marked."""
import json
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

PYTHON = ROOT / ".build" / "reference" / "blender" / "bin" / "python"
MARK = "ASSETC-ANSWER "

PRELUDE = f'''
import json, sys
import bpy
def answer(value):
    print({MARK!r} + json.dumps(value), flush=True)
def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)
def rig_with_two_bones(mesh, location):
    """An armature of two bones at location, the mesh parented to it with automatic weights."""
    bpy.ops.object.armature_add(location=location)
    rig = bpy.context.object
    bpy.ops.object.mode_set(mode="EDIT")
    tip = rig.data.edit_bones.new("Tip")
    tip.head, tip.tail = (0, 0, 1), (0, 0, 2)
    tip.parent = rig.data.edit_bones[0]
    bpy.ops.object.mode_set(mode="OBJECT")
    mesh.select_set(True)
    rig.select_set(True)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    return rig
'''


def blender(script, *args, timeout=300):
    """The value the script passes to answer(...); the script sees its arguments in sys.argv[1:]."""
    if not PYTHON.exists():
        subprocess.run([str(ROOT / "Scripts" / "setup-reference-tools")], check=True, capture_output=True)
    result = subprocess.run([str(PYTHON), "-c", PRELUDE + script, *map(str, args)],
                            capture_output=True, text=True, timeout=timeout)
    answers = [line[len(MARK):] for line in result.stdout.splitlines() if line.startswith(MARK)]
    if result.returncode != 0 or not answers:
        pytest.fail(f"Blender failed ({result.returncode}): {result.stderr[-2000:]}")
    return json.loads(answers[-1])
