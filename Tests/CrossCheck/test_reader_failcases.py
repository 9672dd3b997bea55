"""Every fail-case of every reader (USD, Collada, glTF, OBJ/STL/PLY, FBX, and skeletons and animation) gives one clear, located error
and a non-zero exit, or exit 0 with a warning naming what was refused or dropped and nothing on
standard error. No crash, no hang, bounded memory (the address-space cap), nothing outside read."""
import json
import subprocess

import pytest

from conftest import FIXTURES, assetc_binary, limit_address_space

FORMATS = ["usd", "collada", "gltf", "mesh", "anim", "fbx"]
# Shared with the Swift tests (FailCaseTests), so both runners hold every fail-case to one expectation.
EXPECTED = {(fmt, name): (case["status"], case["message"]) for fmt in FORMATS
            for name, case in json.loads((FIXTURES / fmt / "fail-case.json").read_text()).items()}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_fail_case_has_an_expectation(fmt):
    assert sorted(p.name for p in (FIXTURES / fmt / "fail-case").iterdir()) == sorted(n for f, n in EXPECTED if f == fmt)


@pytest.mark.parametrize("fmt,name", sorted(EXPECTED), ids=[f"{f}/{n}" for f, n in sorted(EXPECTED)])
def test_fail_case(fmt, name):
    status, text = EXPECTED[(fmt, name)]
    folder = FIXTURES / fmt / "fail-case"
    # Run from the fail-case folder: it is the asset root, so the climbing paths leave it.
    result = subprocess.run([assetc_binary(), "info", "--json", str(folder / name)], capture_output=True, text=True,
                            timeout=30, preexec_fn=limit_address_space, cwd=folder)
    assert result.returncode == status, f"exit {result.returncode}: {result.stderr}"
    if status == 0:
        info = json.loads(result.stdout)
        assert any(text in w for w in info["warnings"]), info["warnings"]
        assert result.stderr == ""
    else:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, f"expected one error line, got {lines}"
        assert lines[0].startswith("assetc: error: ") and text in lines[0], lines[0]
        assert result.stdout == ""
