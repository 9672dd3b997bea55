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
