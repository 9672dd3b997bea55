"""USD fail-cases beyond the one-error-or-named-warning rule every reader's fail-cases keep
(test_reader_failcases.py): what a refused reference leaves out."""
import json
import subprocess

from conftest import FIXTURES, assetc_binary

FAIL = FIXTURES / "usd" / "fail-case"


def test_refused_references_add_no_geometry():
    """The file outside exists and is valid; had it been read its 500-unit triangle would show."""
    result = subprocess.run([assetc_binary(), "info", "--json", str(FAIL / "refers_outside.usda")],
                            capture_output=True, text=True, timeout=30, cwd=FAIL)
    info = json.loads(result.stdout)
    assert info["meshes"] == 1
    assert info["bounds"]["max"] == [1, 1, 0]
