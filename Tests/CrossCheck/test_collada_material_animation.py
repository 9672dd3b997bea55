"""Collada channels on effect parameters (Tests/Fixtures/anim/collada_channels/material_channel.dae: the diffuse
colour whole, one member of the emission with STEP keys, transparency, and the specular colour) become material
animation: usd-core reads the converted USD's time-sampled UsdPreviewSurface inputs as the XML's keys give them,
Blender imports the converted glb's KHR_animation_pointer channels onto its Principled BSDF with the same keys, both
read back into assetc as one animated material, a thumbnail changes colour with time, and formats that cannot
animate a material say so."""
import json
import subprocess

import numpy
import pytest
from PIL import Image
from pxr import Usd, UsdShade

from blender_reference import blender
from conftest import FIXTURES, assetc_binary, assetc_info, run_assetc

SOURCE = FIXTURES / "anim" / "collada_channels" / "material_channel.dae"


def lerp(keys, t):
    times = [k[0] for k in keys]
    return numpy.array([numpy.interp(t, times, [k[1][c] for k in keys]) for c in range(len(keys[0][1]))])


def step(keys, t):
    value = keys[0][1]
    for time, v in keys:
        if t >= time:
            value = v
    return numpy.array(value)


# The fixture's keys as the XML states them (make_collada_channel_fixtures.py).
DIFFUSE = [(0, (0.8, 0.1, 0.1)), (1, (0.1, 0.1, 0.8))]
EMISSION_G = [(0, (0.0,)), (1, (0.5,)), (2, (0.25,))]
TRANSPARENCY = [(0, (1.0,)), (1.5, (0.25,))]  # A_ONE with a white <transparent>: opacity is transparency


def expected(t):
    emission = numpy.array([0, step(EMISSION_G, t)[0], 0])
    return {"diffuseColor": lerp(DIFFUSE, t), "emissiveColor": emission, "opacity": lerp(TRANSPARENCY, t)[0]}


def test_the_effect_channels_are_one_animated_material():
    info = assetc_info(SOURCE)
    assert info["animatedMaterials"] == 1 and info["animatedNodes"] == 1
    assert [c["end"] for c in info["clips"]] == [2]
    named = [w for w in info["warnings"] if "Paint-effect/common/specular (specular)" in w]
    assert len(named) == 1 and "no input" in named[0] and len(info["warnings"]) == 1, info["warnings"]


def test_usd_core_reads_the_time_sampled_inputs_as_the_xml_gives_them(tmp_path):
    out = tmp_path / "painted.usda"
    run_assetc("convert", "--force", str(SOURCE), str(out))
    stage = Usd.Stage.Open(str(out))
    fps = stage.GetTimeCodesPerSecond()
    shaders = [UsdShade.Shader(p) for p in stage.Traverse() if p.GetTypeName() == "Shader"
               and UsdShade.Shader(p).GetIdAttr().Get() == "UsdPreviewSurface"]
    assert len(shaders) == 1
    surface = shaders[0]
    for name in ("diffuseColor", "emissiveColor", "opacity"):
        assert surface.GetInput(name).GetAttr().GetNumTimeSamples() >= 2, name
    # On keys, between them, and just either side of the emission's steps.
    for seconds in (0, 0.25, 0.5, 0.99, 1.0, 1.01, 1.25, 1.5, 1.75, 2.0):
        want = expected(seconds)
        for name, value in want.items():
            got = numpy.array(surface.GetInput(name).Get(Usd.TimeCode(seconds * fps)), dtype=float)
            assert numpy.allclose(got, value, atol=2e-3), (name, seconds, got, value)
    # Without a time, the rest values (the effect's own) are what usd-core reads.
    assert numpy.allclose(surface.GetInput("diffuseColor").Get(), (0.8, 0.1, 0.1), atol=1e-6)
    back = assetc_info(out)
    assert back["animatedMaterials"] == 1 and back["animatedNodes"] == 1


BLENDER_KEYS = '''
fresh()
bpy.ops.import_scene.gltf(filepath=sys.argv[1])
fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
material = bpy.data.materials["Paint"]
action = material.node_tree.animation_data.action
curves = []
if hasattr(action, "layers") and len(action.layers):
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                curves += list(bag.fcurves)
else:
    curves = list(action.fcurves)
bsdf = material.node_tree.nodes["Principled BSDF"]
names = {i: s.name for i, s in enumerate(bsdf.inputs)}
out = {}
for fc in curves:
    if not fc.data_path.startswith('nodes["Principled BSDF"].inputs['):
        continue
    index = int(fc.data_path.split("inputs[")[1].split("]")[0])
    out.setdefault(names[index], {})[fc.array_index] = [fc.evaluate(t * fps) for t in json.loads(sys.argv[2])]
answer(out)
'''


def test_blender_imports_the_pointer_channels_as_the_xml_gives_them(tmp_path):
    out = tmp_path / "painted.glb"
    run_assetc("convert", "--force", str(SOURCE), str(out))
    document = json.loads(subprocess.run([assetc_binary(), "validate", "--json", str(out)], capture_output=True, text=True).stdout)
    assert document["errors"] == 0 and document["warnings"] == 0, document
    times = [0, 0.5, 1.25, 1.5, 1.75]
    curves = blender(BLENDER_KEYS, out, json.dumps(times))
    for k, t in enumerate(times):
        want = expected(t)
        base = [curves["Base Color"][str(c)][k] for c in range(3)]
        assert numpy.allclose(base, want["diffuseColor"], atol=2e-3), (t, base)
        assert abs(curves["Alpha"]["0"][k] - want["opacity"]) < 2e-3, (t, curves["Alpha"]["0"][k])
        emission = [curves["Emission Color"][str(c)][k] for c in range(3)]
        assert numpy.allclose(emission, want["emissiveColor"], atol=2e-3), (t, emission)
    back = assetc_info(out)
    assert back["animatedMaterials"] == 1


def test_glb_round_trips_the_material_animation(tmp_path):
    first, second = tmp_path / "a.glb", tmp_path / "b.usda"
    run_assetc("convert", "--force", str(SOURCE), str(first))
    run_assetc("convert", "--force", str(first), str(second))
    stage = Usd.Stage.Open(str(second))
    fps = stage.GetTimeCodesPerSecond()
    surface = next(UsdShade.Shader(p) for p in stage.Traverse() if p.GetName() == "PreviewSurface")
    for seconds in (0.0, 0.5, 1.25):
        got = numpy.array(surface.GetInput("diffuseColor").Get(Usd.TimeCode(seconds * fps)), dtype=float)
        assert numpy.allclose(got, expected(seconds)["diffuseColor"], atol=2e-3), (seconds, got)


def test_a_thumbnail_follows_the_colour(tmp_path):
    colours = {}
    for seconds in ("0", "1"):
        out = tmp_path / seconds
        run_assetc("thumbnail", str(SOURCE), "--out", str(out), "--size", "64", "--time", seconds)
        pixels = numpy.asarray(Image.open(next(out.glob("*.png"))).convert("RGBA"), dtype=float)
        covered = pixels[pixels[..., 3] > 20][:, :3]
        colours[seconds] = covered.mean(axis=0)
    assert colours["0"][0] > colours["0"][2] * 1.5, colours  # red at rest
    assert colours["1"][2] > colours["1"][0] * 1.5, colours  # blue a second in


@pytest.mark.parametrize("suffix", [".dae", ".obj"])
def test_formats_that_cannot_animate_materials_say_so(suffix, tmp_path):
    result = subprocess.run([assetc_binary(), "convert", "--force", str(SOURCE), str(tmp_path / ("out" + suffix))],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    if suffix == ".dae":
        assert "animates no material inputs: 3 channels on material Paint" in result.stderr, result.stderr
    else:
        assert "keeps no animation: 1 animation clip" in result.stderr, result.stderr
