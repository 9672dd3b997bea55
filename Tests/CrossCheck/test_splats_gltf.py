"""Gaussian splats in glTF (issue 60): the KHR_gaussian_splatting primitives assetc writes (with
the COLOR_0 fallback, read back by pygltflib and validated), files written by pygltflib with every
normalized component type the extension allows, and validation of the extension's structure and of
the values in its accessors."""
import numpy as np
import pytest

from conftest import run_assetc
from splat_tools import ply_activated
from test_splats import SPLATS, convert, same_rotations, usd_fields


def gltf_attributes(path):
    import pygltflib
    gltf = pygltflib.GLTF2().load(str(path))
    blob = gltf.binary_blob()
    primitive = gltf.meshes[0].primitives[0]
    sizes = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}

    def accessor(index):
        a = gltf.accessors[index]
        view = gltf.bufferViews[a.bufferView]
        assert a.componentType == 5126
        start = (view.byteOffset or 0) + (a.byteOffset or 0)
        return np.frombuffer(blob[start:start + a.count * sizes[a.type] * 4], np.float32).reshape(a.count, sizes[a.type])
    attributes = {k: accessor(v) for k, v in primitive.attributes.__dict__.items() if v is not None}
    return gltf, primitive, attributes


def test_glb_holds_the_khr_extension_with_a_colour_fallback(tmp_path):
    convert(SPLATS / "field_deg3.usdc", tmp_path / "out.glb")
    gltf, primitive, attributes = gltf_attributes(tmp_path / "out.glb")
    assert "KHR_gaussian_splatting" in gltf.extensionsUsed
    assert primitive.mode == 0 and primitive.indices is None
    assert primitive.extensions["KHR_gaussian_splatting"] == {"kernel": "ellipse", "colorSpace": "srgb_rec709_display"}
    [usd] = usd_fields(SPLATS / "field_deg3.usdc")
    prefix = "KHR_gaussian_splatting:"
    assert np.abs(attributes["POSITION"] - usd["positions"]).max() <= 1e-6
    xyzw = attributes[prefix + "ROTATION"]
    assert same_rotations(np.column_stack([xyzw[:, 3], xyzw[:, :3]]), usd["quats"], 1e-6)
    assert np.abs(attributes[prefix + "SCALE"] - usd["scales"]).max() <= 1e-6
    assert np.abs(attributes[prefix + "OPACITY"][:, 0] - usd["opacities"]).max() <= 1e-6
    sh = usd["sh"].reshape(-1, 16, 3)
    for l in range(4):
        for m in range(2 * l + 1):
            assert np.abs(attributes[f"{prefix}SH_DEGREE_{l}_COEF_{m}"] - sh[:, l * l + m]).max() <= 1e-6
    # COLOR_0: the DC colour, made linear, with the opacity as alpha
    dc = np.clip(sh[:, 0] * 0.28209479177387814 + 0.5, 0, 1)
    linear = np.where(dc <= 0.04045, dc / 12.92, ((dc + 0.055) / 1.055) ** 2.4)
    assert np.abs(attributes["COLOR_0"][:, :3] - linear).max() <= 2e-3
    # the Khronos rules take the extension's attributes
    result = run_assetc("validate", str(tmp_path / "out.glb"))
    assert result.returncode == 0 and "no glTF validation issues" in result.stdout, result.stdout
    # and it reads back as the same splats
    convert(tmp_path / "out.glb", tmp_path / "back.usda")
    [back] = usd_fields(tmp_path / "back.usda")
    for key in ("positions", "scales", "opacities", "sh"):
        assert np.abs(back[key] - usd[key]).max() <= 1e-6, key
    # glTF is in metres: the placement, in metres, is the same
    assert np.abs(back["world"][:3] * back["metres"] - usd["world"][:3] * usd["metres"]).max() <= 1e-6


def test_validate_names_a_broken_khr_splat_primitive(tmp_path):
    import pygltflib
    convert(SPLATS / "inria_deg1_be.ply", tmp_path / "good.glb")
    good = run_assetc("validate", str(tmp_path / "good.glb"))
    assert good.returncode == 0 and "no glTF validation issues" in good.stdout, good.stdout
    gltf = pygltflib.GLTF2().load(str(tmp_path / "good.glb"))
    primitive = gltf.meshes[0].primitives[0]
    primitive.mode = 4
    primitive.attributes.__dict__.pop("KHR_gaussian_splatting:OPACITY", None)
    primitive.attributes.__dict__.pop("KHR_gaussian_splatting:SH_DEGREE_1_COEF_2", None)
    del primitive.extensions["KHR_gaussian_splatting"]["colorSpace"]
    gltf.accessors[primitive.attributes.__dict__["KHR_gaussian_splatting:SCALE"]].normalized = True  # float: never normalized
    gltf.save(str(tmp_path / "bad.glb"))
    bad = run_assetc("validate", str(tmp_path / "bad.glb"))
    assert bad.returncode != 0
    assert "the extension requires POINTS (0)" in bad.stdout
    assert "has no KHR_gaussian_splatting:OPACITY" in bad.stdout
    assert "degree 1 is given in part" in bad.stdout
    assert "colorSpace" in bad.stdout
    assert "KHR_gaussian_splatting:SCALE is VEC3 of componentType 5126 (normalized), which KHR_gaussian_splatting does not allow" in bad.stdout


def khr_glb(path, p, attributes, sh):
    """A KHR_gaussian_splatting GLB written by pygltflib: POSITION as floats, `attributes` (ROTATION,
    SCALE, OPACITY: (array, componentType, normalized)) as given, `sh` (n x coefficients x 3) as floats."""
    import pygltflib
    n = len(p)
    blobs, accessors, views = [], [], []

    def add(array, component, kind, normalized=False, bounds=False):
        data = np.ascontiguousarray(array).tobytes()
        offset = sum(len(b) for b in blobs)
        blobs.append(data + b"\0" * (-len(data) % 4))
        views.append(pygltflib.BufferView(buffer=0, byteOffset=offset, byteLength=len(data), target=34962))
        accessor = pygltflib.Accessor(bufferView=len(views) - 1, componentType=component, count=n, type=kind, normalized=normalized or None)
        if bounds:
            accessor.min, accessor.max = array.min(0).tolist(), array.max(0).tolist()
        accessors.append(accessor)
        return len(accessors) - 1
    prefix = "KHR_gaussian_splatting:"
    kinds = {"ROTATION": "VEC4", "SCALE": "VEC3", "OPACITY": "SCALAR"}
    names = {"POSITION": add(p.astype(np.float32), 5126, "VEC3", bounds=True)}
    for name, (array, component, normalized) in attributes.items():
        names[prefix + name] = add(array, component, kinds[name], normalized)
    for k in range(sh.shape[1]):
        l = int(k ** 0.5)
        names[f"{prefix}SH_DEGREE_{l}_COEF_{k - l * l}"] = add(sh[:, k].astype(np.float32), 5126, "VEC3")
    gltf = pygltflib.GLTF2(
        asset=pygltflib.Asset(version="2.0", generator="pygltflib"), extensionsUsed=["KHR_gaussian_splatting"],
        scenes=[pygltflib.Scene(nodes=[0])], scene=0, nodes=[pygltflib.Node(mesh=0)],
        meshes=[pygltflib.Mesh(primitives=[pygltflib.Primitive(attributes=pygltflib.Attributes(**{}), mode=0,
                                                               extensions={"KHR_gaussian_splatting": {"kernel": "ellipse", "colorSpace": "srgb_rec709_display"}})])],
        accessors=accessors, bufferViews=views, buffers=[pygltflib.Buffer(byteLength=sum(len(b) for b in blobs))])
    for name, index in names.items():
        setattr(gltf.meshes[0].primitives[0].attributes, name, index)
    gltf.set_binary_blob(b"".join(blobs))
    gltf.save(str(path))


# Each component type KHR_gaussian_splatting allows besides float, as (numpy type, componentType, steps).
SHORT, BYTE, USHORT, UBYTE = (np.int16, 5122, 32767), (np.int8, 5120, 127), (np.uint16, 5123, 65535), (np.uint8, 5121, 255)


@pytest.mark.parametrize("rotation_as, scale_as, opacity_as", [(SHORT, None, UBYTE), (BYTE, SHORT, USHORT)],
                         ids=["short_rotation_ubyte_opacity", "byte_rotation_short_scale_ushort_opacity"])
def test_a_khr_file_written_by_pygltflib_with_quantised_attributes(tmp_path, rotation_as, scale_as, opacity_as):
    # Normalized integers where the extension's table allows them, written by pygltflib from the PLY
    # fixture's values (glTF axes are the scene's: taken as they are), two bands of SH as floats.
    p, q, s, o, sh = ply_activated(SPLATS / "inria_deg1_be.ply")
    n = len(p)

    def quantise(values, kind):
        numpy_type, component, steps = kind
        return np.round(values * steps).astype(numpy_type), component, steps
    rotation, rotation_type, rotation_steps = quantise(np.column_stack([q[:, 1:], q[:, 0]]), rotation_as)
    opacity, opacity_type, opacity_steps = quantise(o, opacity_as)
    attributes = {"ROTATION": (rotation, rotation_type, True), "OPACITY": (opacity, opacity_type, True),
                  "SCALE": (s.astype(np.float32), 5126, False)}
    expected_scales = s
    if scale_as:
        assert s.max() <= 1  # a normalized scale holds 0..1
        scale, scale_type, scale_steps = quantise(s, scale_as)
        attributes["SCALE"] = (scale, scale_type, True)
        expected_scales = scale / scale_steps
    khr_glb(tmp_path / "quantised.glb", p, attributes, sh)
    check = run_assetc("validate", str(tmp_path / "quantised.glb"))
    assert check.returncode == 0 and "no glTF validation issues" in check.stdout, check.stdout
    convert(tmp_path / "quantised.glb", tmp_path / "out.usda")
    [field] = usd_fields(tmp_path / "out.usda")
    assert field["degree"] == 1
    assert np.abs(field["positions"] - p).max() <= 1e-6
    # The reader normalises what it reads; the stored rotation, normalised, is what must come back.
    stored = np.maximum(np.column_stack([rotation[:, 3], rotation[:, :3]]) / rotation_steps, -1)
    assert same_rotations(field["quats"], stored / np.linalg.norm(stored, axis=1, keepdims=True), 1e-6)
    assert same_rotations(field["quats"], q, 2 / rotation_steps)
    assert np.abs(field["opacities"] - opacity / opacity_steps).max() <= 1e-6
    assert np.abs(field["scales"] - expected_scales).max() <= 1e-6 * s.max()
    assert np.abs(field["sh"].reshape(n, 4, 3) - sh).max() <= 1e-6


def test_validate_names_khr_splat_values_their_meaning_rules_out(tmp_path):
    p, q, s, o, sh = ply_activated(SPLATS / "inria_deg1_be.ply")
    rotation = np.column_stack([q[:, 1:], q[:, 0]]).astype(np.float32)
    rotation[3] *= 1.5
    scales, opacities = s.astype(np.float32), o.astype(np.float32)
    scales[5, 2] = -scales[5, 2]
    opacities[7] = 1.25
    khr_glb(tmp_path / "bad.glb", p, {"ROTATION": (rotation, 5126, False), "SCALE": (scales, 5126, False),
                                      "OPACITY": (opacities, 5126, False)}, sh)
    bad = run_assetc("validate", str(tmp_path / "bad.glb"))
    assert bad.returncode != 0
    assert "3 errors" in bad.stdout and "ASSETC_SPLAT_VALUE" in bad.stdout, bad.stdout
    findings = [line for line in bad.stdout.splitlines() if "error:" in line]
    assert any("ROTATION: 1 elements are not of unit length; element 3's is 1.5" in f for f in findings), findings
    assert any("SCALE: splat 5 component 2 is -" in f for f in findings), findings
    assert any("OPACITY: splat 7 is 1.25, outside 0..1" in f for f in findings), findings
