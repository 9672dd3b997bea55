"""Writes the USD fixtures made by NVIDIA's usd-convert-gsplat (PyPI, 0.1.15), the converter
people use to bring 3DGS captures into Omniverse and usdview, from the PLY and SPZ fixtures beside
this script. The tool copies the file's values as they are (no axis change; upAxis "Y") and writes
a scratch BASE.usda beside its output, so each run happens in a temporary folder.

    python3 Tests/Fixtures/splats/make_splat_gsplat.py

- gsplat_deg1_from_ply.usda from inria_deg1_be.ply;
- gsplat_deg1_from_spz.usdc from deg1_v2.spz (it reads SPZ v2 and v3 only);
- gsplat_deg3_from_ply.usdz from inria_deg3_le.ply.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
MADE = {"gsplat_deg1_from_ply.usda": "inria_deg1_be.ply", "gsplat_deg1_from_spz.usdc": "deg1_v2.spz",
        "gsplat_deg3_from_ply.usdz": "inria_deg3_le.ply"}


def main():
    if shutil.which("usd-convert-gsplat") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "usd-convert-gsplat==0.1.15"], check=True)
    for target, source in MADE.items():
        with tempfile.TemporaryDirectory() as scratch:
            out = pathlib.Path(scratch) / target
            shutil.copy(HERE / source, pathlib.Path(scratch) / source)
            subprocess.run(["usd-convert-gsplat", "-i", source, "-o", target, "-n", "Capture"], cwd=scratch, check=True,
                           capture_output=True)
            shutil.copy(out, HERE / target)


if __name__ == "__main__":
    main()
