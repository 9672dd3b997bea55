#!/usr/bin/env python3
"""Writes the crate (.usdc) fixtures with OpenUSD's usd-core, the reference writer:
crate/<name>.usdc for a set of text fixtures and the Loomis head sample, crate/versions/ the head
at every crate version from 0.4.0 to 0.10.0, and fail-case/crate_*.usdc made by damaging a valid
file. Needs `pip install usd-core`. Run from anywhere; rerun after changing a source fixture."""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CRATE = os.path.join(HERE, "crate")
VERSIONS = os.path.join(CRATE, "versions")
FAIL = os.path.join(HERE, "fail-case")

SOURCES = ["gprims", "primvars_indexed", "references_internal", "subsets_materials", "syntax_everything",
           "time_samples", "variants", "xform_ops", "zup_default_units"]
HEAD = os.path.join(ROOT, "Assets", "SceneKitAssetCatalog.scnassets", "LoomisHead", "LoomisHead.usda")
ALL_VERSIONS = ["0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "0.10.0"]


def export(source, target, version=None):
    """Exports in a child process: usd-core reads the version setting once per process."""
    env = dict(os.environ)
    if version:
        env["USD_WRITE_NEW_USDC_FILES_AS_VERSION"] = version
    code = "import sys; from pxr import Sdf; sys.exit(0 if Sdf.Layer.FindOrOpen(sys.argv[1]).Export(sys.argv[2]) else 1)"
    subprocess.run([sys.executable, "-c", code, source, target], check=True, env=env)


def sections(data):
    (toc,) = struct.unpack_from("<Q", data, 16)
    (count,) = struct.unpack_from("<Q", data, toc)
    out = {}
    for i in range(count):
        name, start, size = struct.unpack_from("<16sQQ", data, toc + 8 + 32 * i)
        out[name.rstrip(b"\0").decode()] = (start, size)
    return out


def main():
    os.makedirs(VERSIONS, exist_ok=True)
    for name in SOURCES:
        export(os.path.join(HERE, name + ".usda"), os.path.join(CRATE, name + ".usdc"))
    export(HEAD, os.path.join(CRATE, "LoomisHead.usdc"))
    for version in ALL_VERSIONS:
        export(HEAD, os.path.join(VERSIONS, "LoomisHead-%s.usdc" % version), version)

    good = open(os.path.join(CRATE, "xform_ops.usdc"), "rb").read()
    damaged = {
        "crate_truncated.usdc": good[: len(good) * 2 // 3],
        "crate_future_version.usdc": good[:8] + bytes([0, 99, 0]) + good[11:],
    }
    tokens_start = sections(good)["TOKENS"][0]
    damaged["crate_huge_token_count.usdc"] = good[:tokens_start] + struct.pack("<Q", 1 << 60) + good[tokens_start + 8:]
    specs_start = sections(good)["SPECS"][0]
    damaged["crate_huge_spec_count.usdc"] = good[:specs_start] + struct.pack("<Q", 1 << 40) + good[specs_start + 8:]
    for name, data in damaged.items():
        with open(os.path.join(FAIL, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
