"""`assetc validate` on glTF and GLB (issue 37): files made by the tools users use (Blender's glTF
exporter, trimesh) pass with no errors; a broken file fails with its Khronos code and pointer, in
text, --json and --sarif (the pointer a SARIF logical location); info and hints never fail a run;
--target usdz gives the glTF findings and the conversion's together; info and convert warn once and
--strict on convert stops before writing."""
import json

import pytest

from blender_reference import blender
from conftest import FIXTURES, run_assetc

VALIDATION = FIXTURES / "gltf" / "validation"

BLENDER_SCENE = '''
fresh()
import bmesh
out = sys.argv[1]
# A textured cube, and a skinned, shape-keyed, animated plane: what a character export carries.
bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 0.5))
cube = bpy.context.object
material = bpy.data.materials.new("Painted")
material.use_nodes = True
image = bpy.data.images.new("checker", 8, 8)
image.generated_type = "COLOR_GRID"
texture = material.node_tree.nodes.new("ShaderNodeTexImage")
texture.image = image
material.node_tree.links.new(texture.outputs["Color"], material.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
cube.data.materials.append(material)
bpy.ops.mesh.primitive_plane_add(size=2, location=(3, 0, 0))
plane = bpy.context.object
bpy.ops.object.mode_set(mode="EDIT")
bpy.ops.mesh.subdivide(number_cuts=3)
bpy.ops.object.mode_set(mode="OBJECT")
plane.shape_key_add(name="Basis")
lift = plane.shape_key_add(name="Lift")
for point in lift.data:
    point.co.z += 0.3
rig = rig_with_two_bones(plane, (3, 0, 0))
rig.pose.bones["Tip"].rotation_mode = "XYZ"
for frame, angle in ((1, 0.0), (24, 0.8)):
    rig.pose.bones["Tip"].rotation_euler = (angle, 0, 0)
    rig.pose.bones["Tip"].keyframe_insert("rotation_euler", frame=frame)
    lift.value = angle
    lift.keyframe_insert("value", frame=frame)
for fmt, name in (("GLB", "scene.glb"), ("GLTF_SEPARATE", "scene.gltf")):
    bpy.ops.export_scene.gltf(filepath=out + "/" + name, export_format=fmt, export_animations=True, export_skins=True, export_morph=True)
# The same with Draco: the skin's joints and weights are then inside the compressed stream.
bpy.ops.export_scene.gltf(filepath=out + "/scene_draco.glb", export_format="GLB", export_animations=True, export_skins=True,
                          export_morph=False, export_draco_mesh_compression_enable=True)
answer("ok")
'''


def validate(*args):
    result = run_assetc("validate", *map(str, args))
    return result


@pytest.fixture(scope="module")
def blender_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("blender-gltf")
    assert blender(BLENDER_SCENE, folder) == "ok"
    return folder


@pytest.mark.parametrize("name", ["scene.glb", "scene.gltf", "scene_draco.glb"])
def test_blenders_exports_have_no_errors(blender_files, name):
    result = validate("--json", blender_files / name)
    entry = json.loads(result.stdout)["files"][0]
    errors = [f for f in entry["findings"] if f["severity"] == "error"]
    assert errors == [] and result.returncode == 0, errors
    assert entry["format"] == name.split(".")[1]
    if "draco" in name:
        # The stream was decoded and checked: a finding there would say so; none is an error.
        assert "KHR_draco_mesh_compression" in (blender_files / name).read_bytes().decode("latin-1")


def test_trimesh_exports_have_no_errors(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    mesh = trimesh.creation.icosphere(subdivisions=2)
    out = tmp_path / "sphere.glb"
    mesh.export(out)
    entry = json.loads(validate("--json", out).stdout)["files"][0]
    assert [f for f in entry["findings"] if f["severity"] == "error"] == [], entry["findings"]


def test_a_broken_file_fails_with_its_code_and_pointer_in_every_output():
    broken = VALIDATION / "ACCESSOR_MIN_MISMATCH.gltf"
    text = validate(broken)
    assert text.returncode == 1
    assert "ACCESSOR_MIN_MISMATCH" in text.stdout and "/accessors/0/min/0" in text.stdout
    entry = json.loads(validate("--json", broken).stdout)["files"][0]
    found = [f for f in entry["findings"] if f["rule"] == "ACCESSOR_MIN_MISMATCH"]
    assert found and found[0]["location"]["elementPath"] == "/accessors/0/min/0" and found[0]["severity"] == "error"
    assert entry["errors"] >= 1 and "ACCESSOR_MIN_MISMATCH" in entry["failingRules"]
    sarif = json.loads(validate("--sarif", broken).stdout)
    run = sarif["runs"][0]
    result = next(r for r in run["results"] if r["ruleId"] == "ACCESSOR_MIN_MISMATCH")
    assert result["level"] == "error"
    assert result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "/accessors/0/min/0"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == str(broken)
    rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["id"] == "ACCESSOR_MIN_MISMATCH"


def test_information_and_hints_never_fail_a_run():
    # An unused material is information only.
    unused = VALIDATION / "UNUSED_OBJECT.gltf"
    result = validate("--strict", "--json", unused)
    entry = json.loads(result.stdout)["files"][0]
    assert {f["severity"] for f in entry["findings"]} == {"info"}
    assert result.returncode == 0
    sarif = json.loads(validate("--sarif", unused).stdout)
    assert {r["level"] for r in sarif["runs"][0]["results"]} == {"note"}
    # A warning fails only with --strict.
    warning = VALIDATION / "UNEXPECTED_PROPERTY.gltf"
    assert validate(warning).returncode == 0
    assert validate("--strict", warning).returncode == 1


def test_folders_are_searched_for_gltf_and_glb(tmp_path):
    for name in ("base.gltf", "base.glb", "ACCESSOR_INDEX_OOB.gltf"):
        (tmp_path / name).write_bytes((VALIDATION / name).read_bytes())
    result = validate("--json", tmp_path)
    files = json.loads(result.stdout)["files"]
    assert sorted(f["file"].rsplit("/", 1)[1] for f in files) == ["ACCESSOR_INDEX_OOB.gltf", "base.glb", "base.gltf"]
    assert result.returncode == 1


def test_target_usdz_gives_the_gltf_findings_and_the_conversions():
    # A spot light whose cone is inside out: a glTF error, and a light the usdz leaves out.
    source = VALIDATION / "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES.gltf"
    entry = json.loads(run_assetc("validate", "--target", "usdz", "--json", str(source)).stdout)["files"][0]
    found = [(f["rule"], f["message"]) for f in entry["findings"]]
    assert found[0][0] == "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", found
    assert any(rule == "ConversionChecker" and "no lights" in message for rule, message in found), found
    assert not any("glTF validation error" in message for _, message in found), "the glTF findings are not counted again"


def test_info_and_convert_warn_once_and_strict_convert_stops(tmp_path):
    broken = VALIDATION / "ACCESSOR_MIN_MISMATCH.gltf"
    info = run_assetc("info", "--json", str(broken))
    assert info.returncode == 0
    warnings = [w for w in json.loads(info.stdout)["warnings"] if "glTF validation error" in w]
    assert len(warnings) == 1 and "run assetc validate" in warnings[0]
    out = tmp_path / "out.usdz"
    converted = run_assetc("convert", str(broken), str(out))
    assert converted.returncode == 0 and out.exists()
    assert converted.stderr.count("glTF validation error") == 1
    strict_out = tmp_path / "strict.usdz"
    strict = run_assetc("convert", "--strict", str(broken), str(strict_out))
    assert strict.returncode != 0 and "ACCESSOR_MIN_MISMATCH" in strict.stderr
    assert not strict_out.exists(), "nothing is written when --strict stops the conversion"
