"""Collada fail-cases beyond the one-error-or-named-warning rule every reader's fail-cases keep
(test_reader_failcases.py): what the UTF-16 and cyclic documents read as."""
import json
import subprocess

from conftest import FIXTURES, assetc_binary, limit_address_space

FAIL = FIXTURES / "collada" / "fail-case"


def run(name):
    return subprocess.run([assetc_binary(), "info", "--json", str(FAIL / name)], capture_output=True, text=True,
                          timeout=30, preexec_fn=limit_address_space)


def test_utf16_document_reads_like_its_utf8_original():
    utf16 = json.loads(run("utf16.dae").stdout)
    original = json.loads(subprocess.run([assetc_binary(), "info", "--json", str(FIXTURES / "collada" / "minimal_triangles.dae")],
                                         capture_output=True, text=True).stdout)
    for key in ("meshes", "points", "triangles", "bounds"):
        assert utf16[key] == original[key]


def test_cycle_keeps_the_geometry_once_per_placement():
    info = json.loads(run("instance_node_cycle.dae").stdout)
    assert info["meshes"] == 1
