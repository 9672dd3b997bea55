"""Every Collada fail-case gives one clear, located error and a non-zero exit, or exit 0 with a
warning naming what was refused or dropped. No crash, no hang, bounded memory."""
import json
import subprocess

import pytest

from conftest import FIXTURES, assetc_binary, limit_address_space

FAIL = FIXTURES / "collada" / "fail-case"

# name -> exit status and text the one error line or a warning must contain; shared with the Swift
# tests (FailCaseTests), so both runners hold every fail-case to the same expectation.
EXPECTED = {name: (case["status"], case["message"])
            for name, case in json.loads((FIXTURES / "collada" / "fail-case.json").read_text()).items()}


def run(name):
    return subprocess.run([assetc_binary(), "info", "--json", str(FAIL / name)], capture_output=True, text=True,
                          timeout=30, preexec_fn=limit_address_space)


def test_every_fail_case_has_an_expectation():
    assert sorted(p.name for p in FAIL.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fail_case(name):
    status, text = EXPECTED[name]
    result = run(name)
    assert result.returncode == status, f"exit {result.returncode}: {result.stderr}"
    if status == 0:
        info = json.loads(result.stdout)
        assert any(text in w for w in info["warnings"]), info["warnings"]
    else:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, f"expected one error line, got {lines}"
        assert text in lines[0], lines[0]
        assert result.stdout == ""


def test_utf16_document_reads_like_its_utf8_original():
    utf16 = json.loads(run("utf16.dae").stdout)
    original = json.loads(subprocess.run([assetc_binary(), "info", "--json", str(FIXTURES / "collada" / "minimal_triangles.dae")],
                                         capture_output=True, text=True).stdout)
    for key in ("meshes", "points", "triangles", "bounds"):
        assert utf16[key] == original[key]


def test_cycle_keeps_the_geometry_once_per_placement():
    info = json.loads(run("instance_node_cycle.dae").stdout)
    assert info["meshes"] == 1
