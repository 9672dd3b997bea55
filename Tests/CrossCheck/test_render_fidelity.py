"""Thumbnail fidelity: assetc's picture of each scene against Cycles' path-traced one (same camera,
same environment, Blender's Standard view against `--tone-mapping none`), by NVIDIA's FLIP, beside
f3d's picture under the same environment and camera. Scenes are Tests/Fixtures/render (written by
make_pbr_fixtures.py), the Blender-made FBX props and a Collada Phong model.

f3d reads glTF, FBX and Collada here but not USD, so the Z-up USD scene is judged against Cycles only.
Blender 5 has no Collada importer: Cycles renders the Collada model from the glb assimp converts it
to (assimp's own reading of the Phong material), assetc and f3d the .dae itself."""
import shutil
import subprocess

import pytest

from conftest import FIXTURES, ROOT, run_assetc
from render_reference import blender_environment, coverage, cycles, f3d_render, flip

RENDER = FIXTURES / "render"

# Each scene's mean FLIP against Cycles stays under its bound: the figure measured when the test was
# written (Docs/Rendering.md) with about 30% room, so a change that moves a picture away from Cycles
# fails here. orm_cube: Blender's importer keeps glTF's occlusion texture for export only, and Cycles
# computes its own; spec_gloss: Blender turns specular-glossiness into its own Principled inputs.
# texture_transforms_blender is held closer than the 0.06: with the rotation turned the other
# way it measures 0.087, with offsets mirrored 0.103, with the one texCoord override ignored 0.044.
THRESHOLDS = {"sphere_grid.glb": 0.05, "normal_plane.glb": 0.06, "orm_cube.glb": 0.2, "emissive.glb": 0.13,
              "alpha_modes.glb": 0.03, "texture_transform.glb": 0.07, "spec_gloss.glb": 0.2, "clearcoat.glb": 0.08,
              "zup_sphere.usda": 0.05, "fbx/props.fbx": 0.07, "collada/phong": 0.04, "vertex_alpha_box.glb": 0.06,
              "occlusion_second_uv.glb": 0.06, "texture_transforms_blender.glb": 0.025,
              "primvar_reader_variant.usda": 0.06}
SCENES = list(THRESHOLDS)


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    return blender_environment("courtyard.exr", tmp_path_factory.mktemp("env") / "courtyard.hdr")


def source_of(scene, tmp_path):
    """The file assetc and f3d read, and the one Cycles reads."""
    if scene == "fbx/props.fbx":
        path = FIXTURES / "fbx" / "props.fbx"
        return path, path
    if scene == "collada/phong":
        dae = ROOT / "Assets" / "Art.scnassets" / "ship.dae"
        # assimp's glb names the texture by its path relative to the file: convert beside a copy.
        folder = tmp_path / "Art.scnassets"
        shutil.copytree(dae.parent, folder)
        glb = folder / "ship.glb"
        if shutil.which("assimp") is None:
            pytest.fail("assimp is missing: Scripts/setup-reference-tools installs it")
        subprocess.run(["assimp", "export", str(folder / "ship.dae"), str(glb)], check=True, capture_output=True, timeout=120)
        return dae, glb
    path = RENDER / scene
    return path, path


@pytest.mark.parametrize("scene", SCENES)
def test_thumbnails_are_close_to_cycles_and_no_further_than_f3d(scene, environment, tmp_path):
    ours_source, reference_source = source_of(scene, tmp_path)
    reference = tmp_path / "cycles.png"
    camera = cycles(reference_source, reference, environment)
    out = tmp_path / "assetc"
    result = run_assetc("thumbnail", str(ours_source), "--out", str(out), "--size", "256", "--supersample", "4",
                        "--environment", str(environment), "--tone-mapping", "none", timeout=300)
    assert result.returncode == 0, result.stderr
    ours = next(out.rglob("*.png"))
    assert abs(coverage(ours) - coverage(reference)) < 0.05, "the two frame the model alike"
    ours_error = flip(reference, ours)
    f3d_error = None
    if ours_source.suffix != ".usda":
        theirs = tmp_path / "f3d.png"
        f3d_render(ours_source, theirs, environment, camera)
        f3d_error = flip(reference, theirs)
    print(f"{scene}: FLIP assetc {ours_error:.4f}, f3d {f3d_error if f3d_error is None else round(f3d_error, 4)}")
    assert ours_error < THRESHOLDS[scene], f"{scene}: mean FLIP {ours_error:.4f} against Cycles (bound {THRESHOLDS[scene]})"
    if f3d_error is not None:
        assert ours_error <= f3d_error, f"{scene}: assetc {ours_error:.4f} is further from Cycles than f3d {f3d_error:.4f}"
