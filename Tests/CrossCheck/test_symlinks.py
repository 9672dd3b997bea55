"""Symbolic links and the asset root (issue 38): whatever an asset names is checked by where it really
is, so a link inside the asset folder that leads out of it is refused like `../`, with a named warning,
and nothing of the file it leads to is read: a texture (OBJ's MTL), a glTF buffer, a USD sublayer, a
folder the indexer walks. Links that stay inside work; a loop of links is one clear error, at once.
"""
import json
import os
import struct
import subprocess
import time
import zlib

from conftest import assetc_binary, run_assetc

SECRET_RGB = (201, 13, 77)


def png(path, rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * 2 for _ in range(2))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def layout(tmp_path):
    library, outside = tmp_path / "library", tmp_path / "outside"
    (library / "models").mkdir(parents=True)
    (outside / "folder").mkdir(parents=True)
    png(outside / "secret.png", SECRET_RGB)
    png(library / "models" / "inside.png", (1, 2, 3))
    (outside / "folder" / "far.obj").write_text("o far\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (outside / "secret.usda").write_text('#usda 1.0\ndef Xform "OutsideSecret" {}\n')
    return library, outside


def test_a_linked_texture_leaving_the_root_is_refused_and_not_embedded(tmp_path):
    library, outside = layout(tmp_path)
    models = library / "models"
    (models / "box.obj").write_text("mtllib box.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3\n")
    (models / "box.mtl").write_text("newmtl m\nmap_Kd tex.png\n")
    os.symlink(outside / "secret.png", models / "tex.png")
    converted = run_assetc("convert", "--asset-root", str(library), str(models / "box.obj"), str(tmp_path / "box.glb"))
    assert converted.returncode == 0, converted.stderr
    assert "texture refused: 'tex.png' is outside the asset root" in converted.stderr, converted.stderr
    assert b"IHDR" not in (tmp_path / "box.glb").read_bytes(), "no byte of the linked image travels"
    # The same link kept inside the root is followed.
    os.remove(models / "tex.png")
    os.symlink("inside.png", models / "tex.png")
    inside = run_assetc("convert", "--force", "--asset-root", str(library), str(models / "box.obj"), str(tmp_path / "box.glb"))
    assert inside.returncode == 0 and "refused" not in inside.stderr, inside.stderr
    assert b"IHDR" in (tmp_path / "box.glb").read_bytes()


def test_a_linked_gltf_buffer_leaving_the_root_is_refused(tmp_path):
    library, outside = layout(tmp_path)
    (outside / "data.bin").write_bytes(struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0))
    os.symlink(outside / "data.bin", library / "models" / "data.bin")
    gltf = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
            "buffers": [{"uri": "data.bin", "byteLength": 36}], "bufferViews": [{"buffer": 0, "byteLength": 36}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}
    (library / "models" / "tri.gltf").write_text(json.dumps(gltf))
    result = run_assetc("info", "--asset-root", str(library), str(library / "models" / "tri.gltf"))
    assert result.returncode != 0 and "outside the asset root" in result.stderr, result.stdout + result.stderr
    assert result.stderr.count("assetc: error:") == 1


def test_a_linked_layer_leaving_the_root_is_refused_and_named(tmp_path):
    library, outside = layout(tmp_path)
    os.symlink(outside / "secret.usda", library / "models" / "shared.usda")
    (library / "models" / "scene.usda").write_text('#usda 1.0\n(\n    subLayers = [@./shared.usda@]\n)\ndef Xform "Mine" {}\n')
    result = run_assetc("info", "--json", "--asset-root", str(library), str(library / "models" / "scene.usda"))
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert "OutsideSecret" not in result.stdout, "no name from the layer outside the root is printed"
    assert any("shared.usda" in w and "outside the asset root" in w for w in info["warnings"]), info["warnings"]


def test_the_indexer_does_not_walk_a_linked_folder_out_of_the_root_and_ends_on_loops(tmp_path):
    library, outside = layout(tmp_path)
    (library / "models" / "near.obj").write_text("o near\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    os.symlink(outside / "folder", library / "linked")           # a folder outside
    os.symlink("..", library / "models" / "up")                   # a loop through the parent
    os.symlink("loop_b.obj", library / "loop_a.obj")              # a loop of two file links
    os.symlink("loop_a.obj", library / "loop_b.obj")
    (library / "models" / "same").symlink_to(library / "models")  # a link staying inside
    started = time.time()
    index = run_assetc("index", str(library), "--db", str(tmp_path / "c.sqlite"), timeout=120)
    assert index.returncode == 0, index.stderr
    assert time.time() - started < 60
    ids = [r["id"] for r in json.loads(run_assetc("query", "--db", str(tmp_path / "c.sqlite"), "--json").stdout)]
    assert "far.obj" not in " ".join(ids), ids
    assert "library/models/near.obj" in ids
    assert all(i.count("/models/") <= 1 for i in ids), f"a looping link is not walked again: {ids}"


def test_a_loop_of_links_is_one_error_at_once(tmp_path):
    library, _ = layout(tmp_path)
    os.symlink("loop_b.usda", library / "loop_a.usda")
    os.symlink("loop_a.usda", library / "loop_b.usda")
    started = time.time()
    result = subprocess.run([assetc_binary(), "info", str(library / "loop_a.usda")], capture_output=True, text=True, timeout=60)
    assert time.time() - started < 10
    assert result.returncode == 3 and result.stderr.count("assetc: error:") == 1, result.stderr
    assert "loop_a.usda" in result.stderr and "symbolic links" in result.stderr, result.stderr
    # As a sublayer: named, and the rest read.
    (library / "scene.usda").write_text('#usda 1.0\n(\n    subLayers = [@./loop_a.usda@]\n)\ndef Xform "Mine" {}\n')
    layered = run_assetc("info", "--json", str(library / "scene.usda"))
    assert layered.returncode == 0, layered.stderr
    info = json.loads(layered.stdout)
    assert info["nodes"] == 1 and any("loop_a.usda" in w for w in info["warnings"]), info["warnings"]
