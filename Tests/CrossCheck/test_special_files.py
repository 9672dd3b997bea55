"""Special files named like assets (issue 38): a FIFO as the input of every reader and as a layer or texture an
asset names is refused by name at once, never waited on; a regular file beside it is read as before."""
import os
import shutil
import subprocess

import pytest

from conftest import FIXTURES, assetc_binary

FIFO_ERROR = "is a FIFO (named pipe), not a regular file"


def run(*args, cwd):
    return subprocess.run([assetc_binary(), *args], capture_output=True, text=True, timeout=20, cwd=cwd)


@pytest.mark.parametrize("name", ["model.usda", "model.usdc", "model.usdz", "model.dae", "model.gltf", "model.glb", "model.obj",
                                  "model.stl", "model.ply"])
def test_a_fifo_input_is_an_error_at_once(name, tmp_path):
    os.mkfifo(tmp_path / name)
    result = run("info", name, cwd=tmp_path)
    assert result.returncode != 0 and FIFO_ERROR in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, "one clear error line"


def test_a_fifo_sublayer_is_named_and_the_rest_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.usda")
    (tmp_path / "main.usda").write_text('#usda 1.0\n(\n    subLayers = [@pipe.usda@]\n)\ndef Cube "Box" {}\n')
    result = run("info", "--json", "main.usda", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert FIFO_ERROR in result.stdout and "sublayer @pipe.usda@" in result.stdout


def test_a_fifo_texture_is_left_out_with_a_warning(tmp_path):
    source = FIXTURES / "gltf" / "material_extensions"
    shutil.copy(source / "spec_gloss_textured.gltf", tmp_path / "quad.gltf")
    shutil.copy(source / "spec_gloss_specular.png", tmp_path / "spec_gloss_specular.png")
    os.mkfifo(tmp_path / "spec_gloss_diffuse.png")
    result = run("convert", "--force", "quad.gltf", "quad.glb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "texture spec_gloss_diffuse.png could not be read" in result.stderr
    result = run("thumbnail", "quad.gltf", "--out", "thumbs", cwd=tmp_path)
    assert result.returncode == 0 and (tmp_path / "thumbs" / "quad.gltf.png").exists(), result.stderr
