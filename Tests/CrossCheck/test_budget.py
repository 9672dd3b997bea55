"""Budgets on `convert` (issue 39): a Blender-made sculpt past AR Quick Look's triangle and texture
budgets, converted with `--budget quicklook`, passes `validate` with no budget warning and usd-core's
ARKit checks, keeps its silhouette (IoU of the iso thumbnails >= 0.95) and gets 2048 px textures;
`--max-size` tightens until the package fits. Textures come out at the size asked in the right colour
space: colour filtered in linear light, data as numbers, normal maps renormalised."""
import base64
import io
import json
import zipfile

import numpy as np
import pytest
from PIL import Image

import arkit_checker
from blender_reference import blender
from conftest import run_assetc

SCULPT = '''
fresh()
import random
import numpy as np
out = sys.argv[1]
random.seed(7)
bpy.ops.mesh.primitive_uv_sphere_add(segments=256, radius=1, ring_count=256)
sculpt = bpy.context.object
for v in sculpt.data.vertices:
    v.co *= 1 + 0.06 * random.random()
def image(name, pixels):
    img = bpy.data.images.new(name, 4096, 4096, alpha=False)
    img.pixels.foreach_set(pixels.ravel())
    img.filepath_raw = out + "/" + name + ".png"
    img.file_format = "PNG"
    img.save()
    return img
y, x = np.mgrid[0:4096, 0:4096].astype(np.float32) / 4096
colour = np.stack([0.5 + 0.5 * np.sin(40 * x), 0.5 + 0.5 * np.cos(30 * y), 0.3 + 0 * x, 1 + 0 * x], -1)
normal = np.stack([0.5 + 0.2 * np.sin(60 * x), 0.5 + 0.2 * np.cos(60 * y), 0.9 + 0 * x, 1 + 0 * x], -1)
material = bpy.data.materials.new("Skin")
material.use_nodes = True
nodes, links = material.node_tree.nodes, material.node_tree.links
bsdf = nodes["Principled BSDF"]
base = nodes.new("ShaderNodeTexImage"); base.image = image("base", colour)
links.new(base.outputs["Color"], bsdf.inputs["Base Color"])
bumps = nodes.new("ShaderNodeTexImage"); bumps.image = image("normal", normal); bumps.image.colorspace_settings.name = "Non-Color"
normal_map = nodes.new("ShaderNodeNormalMap")
links.new(bumps.outputs["Color"], normal_map.inputs["Color"])
links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
sculpt.data.materials.append(material)
bpy.ops.export_scene.gltf(filepath=out + "/sculpt.glb", export_format="GLB", export_image_format="AUTO")
answer("ok")
'''


@pytest.fixture(scope="module")
def sculpt(tmp_path_factory):
    folder = tmp_path_factory.mktemp("budget")
    assert blender(SCULPT, folder, timeout=600) == "ok"
    return folder / "sculpt.glb"


def silhouette(path, out):
    result = run_assetc("thumbnail", str(path), "--out", str(out), "--size", "256")
    assert result.returncode == 0, result.stderr
    return np.array(Image.open(out / (path.name + ".png")).convert("RGBA"))[:, :, 3] > 127


def package_images(path):
    with zipfile.ZipFile(path) as package:
        return {name: Image.open(io.BytesIO(package.read(name))) for name in package.namelist() if not name.endswith((".usdc", ".usda"))}


def test_a_sculpt_past_quick_looks_budget_comes_under_it(sculpt, tmp_path):
    before = json.loads(run_assetc("info", "--json", str(sculpt)).stdout)
    assert before["triangles"] > 100_000
    found = run_assetc("validate", str(sculpt), "--target", "usdz", "--json", timeout=300)
    out = tmp_path / "sculpt.usdz"
    result = run_assetc("convert", str(sculpt), str(out), "--budget", "quicklook", "--json", timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["conversions"][0]
    assert sum(m["trianglesAfter"] for m in report["simplification"]) <= 100_000
    shrunk = {t["texture"]: t for t in report["textures"]}
    assert len(shrunk) == 2 and all((t["widthBefore"], t["width"], t["height"]) == (4096, 2048, 2048) for t in shrunk.values()), shrunk
    assert sorted(t["content"] for t in shrunk.values()) == ["color", "normal"]
    images = package_images(out)
    assert len(images) == 2 and all(image.size == (2048, 2048) for image in images.values()), {k: v.size for k, v in images.items()}
    verdict = run_assetc("validate", str(out), "--json")
    assert verdict.returncode == 0, verdict.stdout
    findings = json.loads(verdict.stdout)["files"][0]["findings"]
    assert not [f for f in findings if f["rule"] == "BudgetChecker"], findings
    checked = arkit_checker.check(out)
    assert checked["errors"] == [] and checked["failed"] == [], checked
    original, simplified = silhouette(sculpt, tmp_path / "a"), silhouette(out, tmp_path / "b")
    iou = (original & simplified).sum() / (original | simplified).sum()
    assert iou >= 0.95, iou
    assert found.returncode == 0  # the source itself is a valid glTF; only its size is past the budget


def test_max_size_tightens_until_the_package_fits(sculpt, tmp_path):
    out = tmp_path / "small.usdz"
    result = run_assetc("convert", str(sculpt), str(out), "--budget", "quicklook", "--max-size", "1.5", "--json", timeout=900)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["conversions"][0]
    assert out.stat().st_size <= 1_500_000 and report["bytes"] == out.stat().st_size
    assert report["sizeTries"] and all(t["bytes"] > 1_500_000 for t in report["sizeTries"]), report["sizeTries"]
    assert not [w for w in report["warnings"] if "max-size" in w["message"]]


def png(pixels):
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def striped_gltf(path, alpha=False):
    """A quad whose three textures are 64 x 64 one-pixel stripes: black and white colour (and
    roughness), and two normals tilted 37 degrees either way, which average to straight up."""
    stripes = np.zeros((64, 64, 4), np.uint8)
    stripes[:, ::2, :3] = 255
    stripes[..., 3] = 128 if alpha else 255
    tilted = np.zeros((64, 64, 3), np.uint8)
    tilted[:, ::2] = (round(127.5 + 127.5 * 0.6), 128, round(127.5 + 127.5 * 0.8))
    tilted[:, 1::2] = (round(127.5 - 127.5 * 0.6), 128, round(127.5 + 127.5 * 0.8))
    quad = np.array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], np.float32).tobytes() + np.array([0, 0, 1, 0, 1, 1, 0, 1], np.float32).tobytes() \
        + np.array([0, 1, 2, 0, 2, 3], np.uint32).tobytes()
    document = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicRoughnessTexture": {"index": 1}},
                       "normalTexture": {"index": 2}, "alphaMode": "BLEND" if alpha else "OPAQUE"}],
        "textures": [{"source": 0}, {"source": 1}, {"source": 2}],
        "images": [{"uri": png(stripes)}, {"uri": png(stripes[..., :3].copy())}, {"uri": png(tilted)}],
        "buffers": [{"byteLength": len(quad), "uri": "data:application/octet-stream;base64," + base64.b64encode(quad).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
                        {"buffer": 0, "byteOffset": 80, "byteLength": 24}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                      {"bufferView": 2, "componentType": 5125, "count": 6, "type": "SCALAR"}],
    }
    path.write_text(json.dumps(document))
    return path


def output_images(path):
    """(mime type, image) of the base colour, metallic-roughness and normal textures, as pygltflib reads them."""
    import pygltflib
    glb = pygltflib.GLTF2().load(str(path))
    blob = glb.binary_blob()
    material = glb.materials[0]
    out = []
    for info in (material.pbrMetallicRoughness.baseColorTexture, material.pbrMetallicRoughness.metallicRoughnessTexture, material.normalTexture):
        image = glb.images[glb.textures[info.index].source]
        view = glb.bufferViews[image.bufferView]
        out.append((image.mimeType, Image.open(io.BytesIO(blob[view.byteOffset:view.byteOffset + view.byteLength]))))
    return out


def test_textures_shrink_in_their_own_colour_space(tmp_path):
    source = striped_gltf(tmp_path / "stripes.gltf")
    out = tmp_path / "small.glb"
    result = run_assetc("convert", str(source), str(out), "--max-texture", "32")
    assert result.returncode == 0, result.stderr
    (_, colour), (_, data), (_, normal) = output_images(out)
    assert colour.size == data.size == normal.size == (32, 32)
    # Half black, half white averaged in linear light is 0.5, which sRGB stores as 188; averaged as
    # stored numbers (the mistake) it would be 128. Roughness is a number, so 128 is right for it.
    assert abs(np.asarray(colour)[..., :3].mean() - 188) < 3, np.asarray(colour)[..., :3].mean()
    assert abs(np.asarray(data)[..., 1].mean() - 127.5) < 3, np.asarray(data)[..., 1].mean()
    n = np.asarray(normal)[..., :3].astype(float) / 127.5 - 1
    assert np.allclose(n.mean(axis=(0, 1)), [0, 0, 1], atol=0.02), n.mean(axis=(0, 1))
    assert np.allclose(np.linalg.norm(n, axis=-1), 1, atol=0.02)


def test_jpeg_only_where_there_is_no_transparency(tmp_path):
    opaque = run_assetc("convert", str(striped_gltf(tmp_path / "opaque.gltf")), str(tmp_path / "opaque.glb"), "--texture-format", "jpeg", "--json")
    assert opaque.returncode == 0, opaque.stderr
    assert [m for m, _ in output_images(tmp_path / "opaque.glb")] == ["image/jpeg"] * 3
    clear = run_assetc("convert", str(striped_gltf(tmp_path / "clear.gltf", alpha=True)), str(tmp_path / "clear.glb"), "--texture-format", "jpeg")
    assert clear.returncode == 0, clear.stderr
    assert [m for m, _ in output_images(tmp_path / "clear.glb")] == ["image/png", "image/jpeg", "image/jpeg"]


def test_validate_fix_brings_a_usdz_under_its_budget(sculpt, tmp_path):
    big, fixed = tmp_path / "big.usdz", tmp_path / "fixed.usdz"
    assert run_assetc("convert", str(sculpt), str(big), timeout=300).returncode == 0
    result = run_assetc("validate", str(big), "--fix", str(fixed), "--json", timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    text = json.dumps(report)
    assert "simplified" in text and "4096x4096 -> 2048x2048" in text, text[:2000]
    verdict = json.loads(run_assetc("validate", str(fixed), "--json").stdout)
    assert not [f for f in verdict["files"][0]["findings"] if f["rule"] == "BudgetChecker"]
    assert all(image.size == (2048, 2048) for image in package_images(fixed).values())
