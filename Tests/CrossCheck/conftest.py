import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"


def assetc_binary():
    binary = os.environ.get("ASSETC") or str(ROOT / ".build" / "debug" / "assetc")
    if not Path(binary).exists():
        pytest.fail(f"assetc binary not found at {binary}; build first (Scripts/test does)")
    return binary


def run_assetc(*args, timeout=60):
    return subprocess.run([assetc_binary(), *args], capture_output=True, text=True, timeout=timeout)


def assetc_info(path):
    result = run_assetc("info", "--json", str(path))
    assert result.returncode == 0, f"assetc info failed on {path}: {result.stderr}"
    return json.loads(result.stdout)


def close(a, b, scale, rel=1e-4):
    return abs(a - b) <= rel * max(scale, 1e-9)
