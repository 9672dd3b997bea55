"""Messages about assets in a bucket name the bucket from the moment they are made. The readers read staged
local copies, but every warning and error names the `s3://` object it is about, as the readers write it (there
is no rewriting of message text afterwards). Cross-checked against the same files read from a folder on disk:
each message from the bucket is the disk one with the folder written as the prefix, and no message names a
staging folder or anything else under the temporary directory. The assets are the repository's fixtures with
what they reference left out (a missing material library, sublayers, textures, a glTF image), one USD layer whose
textures climb out of the prefix, and three damaged files (a truncated PLY and STL, a usdz that is not a zip)."""
import json
import shutil
import subprocess
import tempfile

import pytest

from conftest import FIXTURES, assetc_binary
from s3_server import started_behind_proxy
from test_s3_storage import environment

PREFIX = "s3://assets/names"

# key under the prefix -> the fixture it is a copy of; what each references is not uploaded.
COPIED = {
    "collada/materials_textures.dae": FIXTURES / "collada" / "materials_textures.dae",
    "obj/groups_ngons_negative.obj": FIXTURES / "mesh" / "groups_ngons_negative.obj",
    "fbx/records_7500.fbx": FIXTURES / "fbx" / "records_7500.fbx",
    "gltf/materials.gltf": FIXTURES / "gltf" / "materials.gltf",
    "gltf/materials.bin": FIXTURES / "gltf" / "materials.bin",
    "usd/sublayers.usda": FIXTURES / "usd" / "sublayers.usda",
}

ESCAPING_USDA = """#usda 1.0
(
    defaultPrim = "Root"
    metersPerUnit = 1
    upAxis = "Y"
)

def Xform "Root"
{
    def Mesh "Quad" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
        texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (interpolation = "vertex")
        rel material:binding = </Root/Looks/Paint>
    }

    def Scope "Looks"
    {
        def Material "Paint"
        {
            token outputs:surface.connect = </Root/Looks/Paint/Surface.outputs:surface>

            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor.connect = </Root/Looks/Paint/Outside.outputs:rgb>
                float inputs:roughness.connect = </Root/Looks/Paint/Gone.outputs:r>
                token outputs:surface
            }

            def Shader "Outside"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @../../../escape.png@
                float3 outputs:rgb
            }

            def Shader "Gone"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @textures/gone.png@
                float outputs:r
            }
        }
    }
}
"""

WRITTEN = {
    "usd/escaping.usda": ESCAPING_USDA.encode(),
    "broken/truncated.ply": b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n",
    "broken/truncated.stl": b"solid cut\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n",
    "broken/damaged.usdz": b"PK\x03\x04" + bytes(range(256)) * 4,
}

MODELS = sorted(key for key in list(COPIED) + list(WRITTEN) if not key.endswith(".bin"))


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The assets in a bucket, and the same files in a folder on disk."""
    server, client = started_behind_proxy()
    disk = tmp_path_factory.mktemp("names-on-disk") / "names"
    for key, source in COPIED.items():
        client.put_object(Bucket="assets", Key=f"names/{key}", Body=source.read_bytes())
        (disk / key).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, disk / key)
    for key, body in WRITTEN.items():
        client.put_object(Bucket="assets", Key=f"names/{key}", Body=body)
        (disk / key).parent.mkdir(parents=True, exist_ok=True)
        (disk / key).write_bytes(body)
    yield server, disk
    server.proxy.close()
    server.close()


def run(server, cwd, *args):
    # Run from a folder the assets are not under, so each asset's folder is its root on disk as in the bucket.
    return subprocess.run([assetc_binary(), *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=environment(server))


def assert_names_no_local_folder(text, *mine):
    """No staging folder, output copy or other temporary path named; `mine` are the test's own paths."""
    for path in mine:
        text = text.replace(str(path), "<mine>")
    temporary = tempfile.gettempdir().rstrip("/") + "/"
    assert "assetc-stage" not in text and "assetc-out" not in text, text
    assert temporary not in text, text


@pytest.mark.parametrize("key", MODELS)
def test_info_says_of_a_bucket_object_what_it_says_of_the_file_named_as_the_object(store, key, tmp_path):
    server, disk = store
    local = run(server, tmp_path, "info", "--json", disk / key)
    remote = run(server, tmp_path, "info", "--json", f"{PREFIX}/{key}")
    assert remote.returncode == local.returncode, (local.stderr, remote.stderr)
    assert_names_no_local_folder(remote.stdout + remote.stderr)
    as_object = lambda text: text.replace(str(disk), PREFIX)
    if local.returncode != 0:
        # The one error, with its location: the object's name where the file's was.
        assert remote.stderr.strip() == as_object(local.stderr.strip()), (local.stderr, remote.stderr)
        assert f"{PREFIX}/{key}" in remote.stderr, remote.stderr
        return
    ours, theirs = json.loads(remote.stdout), json.loads(local.stdout)
    assert ours["warnings"] == [as_object(w) for w in theirs["warnings"]], (ours["warnings"], theirs["warnings"])
    assert ours["warnings"], f"{key} is meant to have something missing"
    # Every warning that names a file names the object (or one beside it) by its s3:// name.
    for warning in ours["warnings"]:
        if str(disk) in as_object(warning) or "/" in warning.split(":")[0]:
            assert warning.startswith(PREFIX + "/"), warning


def test_validate_names_the_objects_in_findings_and_failures(store, tmp_path):
    server, disk = store
    # The folder, and the prefix, as the root of every asset in it: one fence on either side.
    local = run(server, tmp_path, "validate", "--json", disk, "--asset-root", disk)
    remote = run(server, tmp_path, "validate", "--json", PREFIX, "--asset-root", PREFIX)
    assert remote.returncode == local.returncode, (local.stderr, remote.stderr)
    assert_names_no_local_folder(remote.stdout + remote.stderr)
    ours, theirs = json.loads(remote.stdout), json.loads(local.stdout.replace(str(disk), PREFIX))
    assert ours == theirs
    text = json.dumps(ours)
    assert f"{PREFIX}/usd/escaping.usda" in text and f"{PREFIX}/broken/damaged.usdz" in text, text


def test_convert_and_thumbnail_name_objects_in_what_they_print(store, tmp_path):
    server, _ = store
    converted = run(server, tmp_path, "convert", f"{PREFIX}/usd/escaping.usda", tmp_path / "escaping.glb")
    assert converted.returncode == 0, converted.stderr
    assert_names_no_local_folder(converted.stdout + converted.stderr, tmp_path)
    assert f"outside the asset root {PREFIX}/usd " in converted.stdout + converted.stderr, converted.stderr
    assert f"{PREFIX}/usd/textures/gone.png" in converted.stdout + converted.stderr, converted.stderr
    failed = run(server, tmp_path, "convert", f"{PREFIX}/broken/truncated.stl", tmp_path / "cut.glb")
    assert failed.returncode != 0 and f"{PREFIX}/broken/truncated.stl" in failed.stderr, failed.stderr
    assert_names_no_local_folder(failed.stdout + failed.stderr, tmp_path)
    pictures = run(server, tmp_path, "thumbnail", PREFIX, "--out", tmp_path / "pictures")
    assert_names_no_local_folder(pictures.stdout + pictures.stderr, tmp_path)
    assert f"{PREFIX}/broken/damaged.usdz" in pictures.stdout + pictures.stderr, pictures.stderr
