import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"


# Bytes of address space assetc may use on a hostile input: the bound. assetc's default
# memory budget is half of it, so a file that claims more fails on the budget, not on the kernel.
ADDRESS_SPACE_CAP = 2 << 30


def limit_address_space():
    """preexec_fn for subprocess: applies ADDRESS_SPACE_CAP to the child."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))


def assetc_binary():
    binary = os.environ.get("ASSETC") or str(ROOT / ".build" / "debug" / "assetc")
    if not Path(binary).exists():
        pytest.fail(f"assetc binary not found at {binary}; build first (Scripts/test does)")
    return binary


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_ok(url, seconds=120):
    """Polls `url` until it answers 200 (a service starting and indexing); False when it never does."""
    import time
    import urllib.request
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def run_assetc(*args, timeout=60):
    return subprocess.run([assetc_binary(), *args], capture_output=True, text=True, timeout=timeout)


def assetc_info(path):
    result = run_assetc("info", "--json", str(path))
    assert result.returncode == 0, f"assetc info failed on {path}: {result.stderr}"
    return json.loads(result.stdout)


def close(a, b, scale, rel=1e-4):
    return abs(a - b) <= rel * max(scale, 1e-9)
