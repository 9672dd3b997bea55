"""Messages about assets in a bucket name the bucket from the moment they are made. The readers read staged
local copies, but every warning and error names the `s3://` object it is about, as the readers write it (there
is no rewriting of message text afterwards). Cross-checked against the same files read from a folder on disk:
each message from the bucket is the disk one with the folder written as the prefix, and no message names a
staging folder or anything else under the temporary directory. The assets, each with what it references left
out: Blender's USD export with MaterialX (its textures not uploaded), a layer usd-core authors whose textures
are missing or climb out of the prefix, a glTF pygltflib writes with an external buffer and two such images,
the repository's OBJ, Collada, FBX and glTF fixtures (a missing material library, textures, an image), a layer
whose sublayers are missing, and three damaged files (a truncated PLY and STL, a usdz that is not a zip)."""
import json
import shutil
import struct
import subprocess
import tempfile

import pytest

from conftest import FIXTURES, assetc_binary
from s3_server import put_tree, started_behind_proxy
from test_s3_storage import environment

PREFIX = "s3://assets/names"

# key under the prefix -> the fixture it is a copy of; what each references is not uploaded.
COPIED = {
    "blender/blender_materials.usda": FIXTURES / "materialx" / "blender_materials.usda",
    "collada/materials_textures.dae": FIXTURES / "collada" / "materials_textures.dae",
    "obj/groups_ngons_negative.obj": FIXTURES / "mesh" / "groups_ngons_negative.obj",
    "fbx/records_7500.fbx": FIXTURES / "fbx" / "records_7500.fbx",
    "gltf/materials.gltf": FIXTURES / "gltf" / "materials.gltf",
    "gltf/materials.bin": FIXTURES / "gltf" / "materials.bin",
    "usd/sublayers.usda": FIXTURES / "usd" / "sublayers.usda",
}

DAMAGED = {
    "broken/truncated.ply": b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n",
    "broken/truncated.stl": b"solid cut\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n",
    "broken/damaged.usdz": b"PK\x03\x04" + bytes(range(256)) * 4,
}

# The textures the tool-made assets name: one that is not there, one outside the prefix.
GONE, ESCAPING = "textures/gone.png", "../../../escape.png"


def author_usd(path):
    """A quad whose material reads its colour from a texture outside the prefix and its roughness from
    one that is not there, authored by usd-core."""
    from pxr import Sdf, Usd, UsdGeom, UsdShade
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/Root").GetPrim())
    mesh = UsdGeom.Mesh.Define(stage, "/Root/Quad")
    mesh.CreatePointsAttr([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)])
    mesh.CreateFaceVertexCountsAttr([4])
    mesh.CreateFaceVertexIndicesAttr([0, 1, 2, 3])
    UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.vertex).Set(
        [(0, 0), (1, 0), (1, 1), (0, 1)])
    material = UsdShade.Material.Define(stage, "/Root/Looks/Paint")
    surface = UsdShade.Shader.Define(stage, "/Root/Looks/Paint/Surface")
    surface.CreateIdAttr("UsdPreviewSurface")
    material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    for name, file, input_name, value_type, output in (("Outside", ESCAPING, "diffuseColor", Sdf.ValueTypeNames.Color3f, "rgb"),
                                                      ("Gone", GONE, "roughness", Sdf.ValueTypeNames.Float, "r")):
        texture = UsdShade.Shader.Define(stage, f"/Root/Looks/Paint/{name}")
        texture.CreateIdAttr("UsdUVTexture")
        texture.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(file)
        surface.CreateInput(input_name, value_type).ConnectToSource(texture.CreateOutput(output, value_type))
    UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(material)
    stage.GetRootLayer().Save()


def author_gltf(path):
    """A textured triangle pygltflib writes, its buffer beside it, its colour and emissive images the two above."""
    import pygltflib as g
    positions, uvs = [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 0), (1, 0), (0, 1)]
    blob = b"".join(struct.pack("<3f", *p) for p in positions) + b"".join(struct.pack("<2f", *t) for t in uvs)
    (path.parent / "triangle.bin").write_bytes(blob)
    gltf = g.GLTF2(
        scenes=[g.Scene(nodes=[0])], nodes=[g.Node(mesh=0)],
        meshes=[g.Mesh(primitives=[g.Primitive(attributes=g.Attributes(POSITION=0, TEXCOORD_0=1), material=0)])],
        materials=[g.Material(pbrMetallicRoughness=g.PbrMetallicRoughness(baseColorTexture=g.TextureInfo(index=0)),
                              emissiveTexture=g.TextureInfo(index=1), emissiveFactor=[1, 1, 1])],
        textures=[g.Texture(source=0), g.Texture(source=1)], images=[g.Image(uri=GONE), g.Image(uri=ESCAPING)],
        buffers=[g.Buffer(uri="triangle.bin", byteLength=len(blob))],
        bufferViews=[g.BufferView(buffer=0, byteOffset=0, byteLength=36), g.BufferView(buffer=0, byteOffset=36, byteLength=24)],
        accessors=[g.Accessor(bufferView=0, componentType=g.FLOAT, count=3, type=g.VEC3, min=[0, 0, 0], max=[1, 1, 0]),
                   g.Accessor(bufferView=1, componentType=g.FLOAT, count=3, type=g.VEC2)])
    gltf.scene = 0
    gltf.save(str(path))


def models(disk):
    return sorted(str(p.relative_to(disk)) for p in disk.rglob("*") if p.is_file() and p.suffix != ".bin")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The assets in a folder on disk, and the same files in a bucket."""
    disk = tmp_path_factory.mktemp("names-on-disk") / "names"
    for key, source in COPIED.items():
        (disk / key).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, disk / key)
    for key, body in DAMAGED.items():
        (disk / key).parent.mkdir(parents=True, exist_ok=True)
        (disk / key).write_bytes(body)
    author_usd(disk / "usd" / "escaping.usda")
    (disk / "pygltflib").mkdir()
    author_gltf(disk / "pygltflib" / "triangle.gltf")
    server, client = started_behind_proxy()
    put_tree(client, "assets", disk, "names")
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


# Every model the fixture puts in the bucket (checked below, so none is left untested).
KEYS = ["blender/blender_materials.usda", "broken/damaged.usdz", "broken/truncated.ply", "broken/truncated.stl",
        "collada/materials_textures.dae", "fbx/records_7500.fbx", "gltf/materials.gltf", "obj/groups_ngons_negative.obj",
        "pygltflib/triangle.gltf", "usd/escaping.usda", "usd/sublayers.usda"]


def test_every_model_in_the_bucket_is_checked(store):
    assert models(store[1]) == KEYS


@pytest.mark.parametrize("key", KEYS)
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
    assert not (tmp_path / "cut.glb").exists(), "a failed conversion leaves no file"
    assert_names_no_local_folder(failed.stdout + failed.stderr, tmp_path)
    from_gltf = run(server, tmp_path, "convert", f"{PREFIX}/pygltflib/triangle.gltf", tmp_path / "triangle.usdz")
    assert from_gltf.returncode == 0, from_gltf.stderr
    assert_names_no_local_folder(from_gltf.stdout + from_gltf.stderr, tmp_path)
    assert f"looked for {PREFIX}/pygltflib/{GONE}" in from_gltf.stderr, from_gltf.stderr
    assert f"outside the asset root {PREFIX}/pygltflib " in from_gltf.stderr, from_gltf.stderr
    pictures = run(server, tmp_path, "thumbnail", PREFIX, "--out", tmp_path / "pictures")
    assert_names_no_local_folder(pictures.stdout + pictures.stderr, tmp_path)
    assert f"{PREFIX}/broken/damaged.usdz" in pictures.stdout + pictures.stderr, pictures.stderr
