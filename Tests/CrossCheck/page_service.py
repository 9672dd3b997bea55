"""What the browser page tests share: `assetc serve` on a temporary copy of Assets/ with an
animated, a variant-carrying and a Gaussian-splat sample beside it, and Debian's Chromium driven by playwright with
WebGL on SwiftShader (Scripts/setup-reference-tools installs both)."""
import shutil
import subprocess

import pytest
from playwright.sync_api import sync_playwright

from conftest import FIXTURES, assetc_binary, free_port, wait_for_ok

ROOT = FIXTURES.parent.parent
BACKGROUND = (244, 244, 244)  # the 3D view's clear colour


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """(base URL, library folder) of a running service; the catalog's ids start with `Library/`."""
    folder = tmp_path_factory.mktemp("pages")
    library = folder / "Library"
    shutil.copytree(ROOT / "Assets", library)
    shutil.copy(FIXTURES / "anim" / "skinned_arm.usda", library / "skinned_arm.usda")
    shutil.copy(FIXTURES / "gltf" / "material_extensions" / "variants.glb", library / "variants.glb")
    shutil.copy(FIXTURES / "splats" / "upright_capture.ply", library / "capture.ply")
    shutil.copy(FIXTURES / "splats" / "mixed_mesh_field.usda", library / "mixed_mesh_field.usda")
    port = free_port()
    process = subprocess.Popen([assetc_binary(), "serve", str(library), "--db", str(folder / "catalog.sqlite"), "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    wait_for_ok(base + "/health")
    yield base, library
    process.terminate()
    process.communicate(timeout=30)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=shutil.which("chromium"),
                                     args=["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"])
        yield chromium
        chromium.close()
