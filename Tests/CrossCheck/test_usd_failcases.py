"""Every USD fail-case gives one clear, located error and a non-zero exit, or exit 0 with a warning
naming what was refused or dropped. No crash, no hang, bounded memory, nothing outside read."""
import json
import resource
import subprocess

import pytest

from conftest import FIXTURES, assetc_binary

FAIL = FIXTURES / "usd" / "fail-case"

# name -> (exit status, text the one error line or a warning must contain)
EXPECTED = {
    "truncated.usda": (1, "truncated.usda:11:31: '[' is never closed"),
    "unclosed_string.usda": (1, "unclosed_string.usda:3:11: string is never closed"),
    "not_usda.usda": (1, "not_usda.usda:1:1: not a usda layer"),
    "bad_version.usda": (1, "bad_version.usda:1:7: unsupported usda version '2.0'"),
    "deep_nesting.usda": (1, "deep_nesting.usda:514:1: limit exceeded: prims nested deeper than 512 levels"),
    "crate_header_only.usdc": (1, "crate_header_only.usdc (byte offset 16): usdc: table of contents offset 0 is not inside the 96-byte file"),
    "crate_truncated.usdc": (1, "crate_truncated.usdc (byte offset 16): usdc: table of contents offset"),
    "crate_future_version.usdc": (1, "crate_future_version.usdc (byte offset 8): not supported: usdc crate version 0.99.0"),
    "crate_huge_token_count.usdc": (1, "usdc: TOKENS claims 1152921504606846976 tokens"),
    "crate_huge_spec_count.usdc": (1, "usdc: SPECS paths claims 1099511627776 values"),
    "truncated.usdz": (1, "truncated.usdz: not a readable usdz package"),
    "deflated.usdz": (1, "deflated.usdz[scene.usda]: entry is compressed"),
    "dotdot_root.usdz": (1, "refused path: package entry '../evil.usda'"),
    "absolute_entry.usdz": (1, "refused path: package entry '/etc/evil.usda'"),
    "huge_claimed_size.usdz": (1, "huge_claimed_size.usdz: not a readable usdz package"),
    "refers_outside.usda": (0, "reference refused: '../outside.usda' is outside the asset's folder"),
    "bad_indices.usda": (0, "(/Parts/Broken): mesh dropped: faceVertexIndices[2] = 7 is outside the 3 points"),
}

MEMORY_CAP = 2 << 30  # bytes of address space the reader may use on any of these files


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP * 4, MEMORY_CAP * 4))


def test_every_fail_case_has_an_expectation():
    assert sorted(p.name for p in FAIL.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fail_case(name):
    status, text = EXPECTED[name]
    result = subprocess.run([assetc_binary(), "info", "--json", str(FAIL / name)], capture_output=True, text=True,
                            timeout=30, preexec_fn=limit_memory)
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
                            capture_output=True, text=True, timeout=30)
    info = json.loads(result.stdout)
    assert info["meshes"] == 1
    assert info["bounds"]["max"] == [1, 1, 0]
