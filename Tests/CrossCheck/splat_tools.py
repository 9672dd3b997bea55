"""Independent splat tools for the splat cross-checks: Niantic's SPZ library through PyPI `alspz`
(Cython bindings, built here from its sdist with the two CMake fixes ../shared/TOOLCHAIN.md gives,
since it ships no wheel for this machine and Debian's zstd exports no `zstd::zstd` target), and a
reader of a 3DGS PLY's activated values with plyfile. Each is installed when missing."""
import importlib
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

import numpy as np

ALSPZ = "alspz==0.2.0"


def alspz():
    """The alspz module, built and installed first if it is not there."""
    try:
        module = importlib.import_module("alspz")
        if hasattr(module, "load_spz"):  # not a stray folder of that name taken as a namespace package
            return module
    except ImportError:
        pass
    work = pathlib.Path(tempfile.mkdtemp(prefix="alspz-"))
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", "alspz", "--no-deps", ALSPZ, "-d", str(work)], check=True)
        archive = next(work.glob("alspz-*.tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(work, filter="data")
        source = next(p for p in work.iterdir() if p.is_dir())
        cmake = source / "CMakeLists.txt"
        text = cmake.read_text()
        text = text.replace("set(BUILD_SHARED_LIBS OFF)", "set(BUILD_SHARED_LIBS OFF)\nset(CMAKE_POSITION_INDEPENDENT_CODE ON)", 1)
        text = text.replace("# ---- spz", "if (NOT TARGET zstd::zstd)\n  add_library(zstd::zstd INTERFACE IMPORTED)\n"
                                          "  target_link_libraries(zstd::zstd INTERFACE zstd::libzstd_shared)\nendif()\n# ---- spz", 1)
        cmake.write_text(text)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)], check=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    importlib.invalidate_caches()
    return importlib.import_module("alspz")


def ply_activated(path):
    """A 3DGS PLY's splats as the USD schema holds them, read with plyfile: positions, unit
    quaternions (w, x, y, z), linear scales, sigmoid opacities, SH (N, K, 3) coefficient-major."""
    from plyfile import PlyData
    v = PlyData.read(str(path))["vertex"].data
    rest = sorted((p for p in v.dtype.names if p.startswith("f_rest_")), key=lambda p: int(p[7:]))
    per_channel = len(rest) // 3
    positions = np.stack([v["x"], v["y"], v["z"]], 1).astype(np.float64)
    q = np.stack([v[f"rot_{k}"] for k in range(4)], 1).astype(np.float64)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    scales = np.exp(np.stack([v[f"scale_{k}"] for k in range(3) if f"scale_{k}" in v.dtype.names], 1).astype(np.float64))
    opacity = 1 / (1 + np.exp(-np.asarray(v["opacity"], np.float64)))
    sh = np.zeros((len(v), per_channel + 1, 3))
    for c in range(3):
        sh[:, 0, c] = v[f"f_dc_{c}"]
        for k in range(per_channel):
            sh[:, k + 1, c] = v[rest[c * per_channel + k]]
    return positions, q, scales, opacity, sh
