"""Every USD fail-case gives one clear, located error and a non-zero exit, or exit 0 with a warning
naming what was refused or dropped. No crash, no hang, bounded memory, nothing outside read."""
import json
import subprocess

import pytest

from conftest import FIXTURES, assetc_binary, limit_address_space

FAIL = FIXTURES / "usd" / "fail-case"

# name -> exit status and text the one error line or a warning must contain; shared with the Swift
# tests (FailCaseTests), so both runners hold every fail-case to the same expectation.
EXPECTED = {name: (case["status"], case["message"])
            for name, case in json.loads((FIXTURES / "usd" / "fail-case.json").read_text()).items()}

def test_every_fail_case_has_an_expectation():
    assert sorted(p.name for p in FAIL.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fail_case(name):
    status, text = EXPECTED[name]
    # Run from the fail-case folder, so that folder is the asset root (refers_outside.usda's
    # target lies one level up, outside it).
    result = subprocess.run([assetc_binary(), "info", "--json", str(FAIL / name)], capture_output=True, text=True,
                            timeout=30, preexec_fn=limit_address_space, cwd=FAIL)
    assert result.returncode == status, f"exit {result.returncode}: {result.stderr}"
    if status == 0:
        info = json.loads(result.stdout)
        assert any(text in w for w in info["warnings"]), info["warnings"]
        assert result.stderr == ""
    else:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, f"expected one error line, got {lines}"
        assert lines[0].startswith("assetc: error: ")
        assert text in lines[0], lines[0]
        assert result.stdout == ""


def test_refused_references_add_no_geometry():
    """The file outside exists and is valid; had it been read its 500-unit triangle would show."""
    result = subprocess.run([assetc_binary(), "info", "--json", str(FAIL / "refers_outside.usda")],
                            capture_output=True, text=True, timeout=30, cwd=FAIL)
    info = json.loads(result.stdout)
    assert info["meshes"] == 1
    assert info["bounds"]["max"] == [1, 1, 0]
