"""Animated lights (Tests/Fixtures/anim/lights/light_animation.usda, written by usd-core: a DistantLight whose
colour is time-sampled, a SphereLight whose intensity is) are read as light animation and kept by every writer
that holds lights: usd-core reads the same samples back from usda and usdc, the glb carries KHR_lights_punctual
lights with KHR_animation_pointer channels that pygltflib reads as the samples and Blender imports onto its
lights, the glb reads back into assetc as the same animation, and a usdz for AR Quick Look, which takes no
lights, names the lights and their channels it leaves out."""
import json
import struct
import subprocess

import numpy
import pytest
from pxr import Usd, UsdLux

from blender_reference import blender
from conftest import FIXTURES, assetc_binary, assetc_info, run_assetc

SOURCE = FIXTURES / "anim" / "lights" / "light_animation.usda"


def usd_samples(path):
    """{light name: {input: [(seconds, value tuple)]}} for every time-sampled UsdLux colour and intensity."""
    stage = Usd.Stage.Open(str(path))
    fps = stage.GetTimeCodesPerSecond()
    found = {}
    for prim in stage.Traverse():
        if not prim.HasAPI(UsdLux.LightAPI):
            continue
        light = UsdLux.LightAPI(prim)
        for name, attribute in (("color", light.GetColorAttr()), ("intensity", light.GetIntensityAttr())):
            times = attribute.GetTimeSamples()
            if len(times) > 1:
                values = [attribute.Get(t) for t in times]
                found.setdefault(prim.GetName(), {})[name] = [(t / fps, tuple(v) if name == "color" else (v,)) for t, v in zip(times, values)]
    return found


def glb_json(path):
    data = path.read_bytes()
    length = struct.unpack("<I", data[12:16])[0]
    return json.loads(data[20:20 + length]), data


def test_the_time_samples_are_light_animation():
    info = assetc_info(SOURCE)
    assert info["lights"] == 2 and info["animatedLights"] == 2 and info["animations"] == 1, info
    assert info["duration"] == pytest.approx(2.0) and info["warnings"] == []


@pytest.mark.parametrize("suffix", [".usda", ".usdc"])
def test_usd_writers_keep_the_samples(tmp_path, suffix):
    out = tmp_path / ("lights" + suffix)
    run_assetc("convert", "--force", str(SOURCE), str(out))
    want, got = usd_samples(SOURCE), usd_samples(out)
    assert set(got) == set(want) == {"Sun", "Lamp"}
    for light, inputs in want.items():
        assert set(got[light]) == set(inputs), (light, got[light])
        for name, samples in inputs.items():
            assert [t for t, _ in got[light][name]] == pytest.approx([t for t, _ in samples])
            assert numpy.allclose([v for _, v in got[light][name]], [v for _, v in samples], atol=1e-6), (light, name)


def test_the_glb_carries_pointer_channels_with_the_samples(tmp_path):
    from pygltflib import GLTF2
    out = tmp_path / "lights.glb"
    run_assetc("convert", "--force", str(SOURCE), str(out))
    report = json.loads(subprocess.run([assetc_binary(), "validate", "--json", str(out)], capture_output=True, text=True).stdout)
    assert report["errors"] == 0 and report["warnings"] == 0, report
    gltf = GLTF2().load(str(out))
    lights = gltf.extensions["KHR_lights_punctual"]["lights"]
    assert sorted(l["type"] for l in lights) == ["directional", "point"]
    assert "KHR_lights_punctual" in gltf.extensionsUsed and "KHR_animation_pointer" in gltf.extensionsUsed
    blob = gltf.binary_blob()

    def floats(index):
        accessor = gltf.accessors[index]
        view = gltf.bufferViews[accessor.bufferView]
        width = {"SCALAR": 1, "VEC3": 3}[accessor.type]
        start = view.byteOffset + (accessor.byteOffset or 0)
        return numpy.frombuffer(blob[start:start + 4 * width * accessor.count], dtype="<f4").reshape(accessor.count, width)
    want = usd_samples(SOURCE)
    by_name = {l.get("name"): i for i, l in enumerate(lights)}
    (animation,) = gltf.animations
    seen = set()
    for channel in animation.channels:
        pointer = channel.target.extensions["KHR_animation_pointer"]["pointer"]
        parts = pointer.split("/")
        assert parts[:4] == ["", "extensions", "KHR_lights_punctual", "lights"], pointer
        light = next(name for name, i in by_name.items() if i == int(parts[4]))
        sampler = animation.samplers[channel.sampler]
        samples = want[light][parts[5]]
        assert floats(sampler.input)[:, 0] == pytest.approx([t for t, _ in samples], abs=1e-6)
        assert numpy.allclose(floats(sampler.output), [v for _, v in samples], atol=1e-6), pointer
        seen.add((light, parts[5]))
    assert seen == {("Sun", "color"), ("Lamp", "intensity")}
    back = assetc_info(out)
    assert back["animatedLights"] == 2 and back["duration"] == pytest.approx(2.0) and back["warnings"] == [], back


BLENDER_LIGHT_KEYS = '''
fresh()
bpy.ops.import_scene.gltf(filepath=sys.argv[1])
fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
times = json.loads(sys.argv[2])
out = {}
for light in bpy.data.lights:
    data = light.animation_data
    if not data or not data.action:
        continue
    curves = []
    if hasattr(data, "action_slot") and data.action_slot is not None:
        for layer in data.action.layers:
            for strip in layer.strips:
                bag = strip.channelbag(data.action_slot)
                if bag:
                    curves += list(bag.fcurves)
    else:
        curves = list(data.action.fcurves)
    for fc in curves:
        out.setdefault(light.name, {}).setdefault(fc.data_path, {})[fc.array_index] = [fc.evaluate(t * fps) for t in times]
answer(out)
'''


def test_blender_imports_the_light_animation(tmp_path):
    out = tmp_path / "lights.glb"
    run_assetc("convert", "--force", str(SOURCE), str(out))
    want = usd_samples(SOURCE)
    times = [0, 0.25, 0.5, 1.0, 1.5, 2.0]
    curves = blender(BLENDER_LIGHT_KEYS, out, json.dumps(times))
    sun = want["Sun"]["color"]
    for c in range(3):
        expected = numpy.interp(times, [t for t, _ in sun], [v[c] for _, v in sun])
        assert numpy.allclose(curves["Sun"]["color"][str(c)], expected, atol=1e-4), (c, curves["Sun"])
    assert "energy" not in curves["Sun"], "the sun's intensity is not animated"
    lamp = want["Lamp"]["intensity"]
    expected = numpy.interp(times, [t for t, _ in lamp], [v[0] for _, v in lamp])
    energy = numpy.array(curves["Lamp"]["energy"]["0"])
    # Blender turns glTF's candela into its own watts by one constant factor; the curve's shape is the keys'.
    assert numpy.allclose(energy / energy[0], expected / expected[0], atol=1e-4), energy
    assert "color" not in curves["Lamp"], "the lamp's colour is not animated"


def test_usdz_for_ar_quick_look_names_the_lights_and_their_channels(tmp_path):
    out = tmp_path / "lights.usdz"
    result = subprocess.run([assetc_binary(), "convert", "--force", str(SOURCE), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    named = [line for line in result.stderr.splitlines() if "takes no lights" in line]
    assert len(named) == 1 and "2 lights left out, with 2 animation channels" in named[0], result.stderr
    info = assetc_info(out)
    assert info["lights"] == 0 and info["animations"] == 0, info


def test_gltf_keeps_cameras_and_lights_through_a_usd_round_trip(tmp_path):
    """nodes_instancing.gltf's camera and KHR_lights_punctual light, through usda and back to glb: pygltflib reads the
    same camera and light, each once, on nodes of the same names."""
    from pygltflib import GLTF2
    source = FIXTURES / "gltf" / "nodes_instancing.gltf"
    middle, out = tmp_path / "nodes.usda", tmp_path / "nodes.glb"
    run_assetc("convert", "--force", str(source), str(middle))
    result = subprocess.run([assetc_binary(), "convert", "--force", str(middle), str(out)], capture_output=True, text=True)
    assert result.returncode == 0 and "cameras or lights" not in result.stderr, result.stderr
    gltf = GLTF2().load(str(out))
    (camera,) = gltf.cameras
    assert camera.type == "perspective" and camera.perspective.yfov == pytest.approx(0.8, abs=1e-4)
    assert camera.perspective.znear == pytest.approx(0.1) and camera.perspective.zfar == pytest.approx(100)
    (light,) = gltf.extensions["KHR_lights_punctual"]["lights"]
    assert light["type"] == "directional" and light["intensity"] == pytest.approx(3) and light["color"] == pytest.approx([1, 0.9, 0.8])
    holders = {n.name for n in gltf.nodes if n.camera is not None or (n.extensions or {}).get("KHR_lights_punctual")}
    assert holders == {"Camera", "Sun"}, holders
    back = assetc_info(out)
    assert back["cameras"] == 1 and back["lights"] == 1 and back["warnings"] == [], back


def test_blenders_pointer_animation_of_a_light_is_read(tmp_path):
    """blender_light_animation.glb (Blender's glTF exporter, make_blender_light_animation.py): its
    KHR_animation_pointer channels on a light's colour and intensity are read as light animation, and usd-core
    reads the usda assetc writes with the glb's own keys."""
    from pygltflib import GLTF2
    source = FIXTURES / "anim" / "lights" / "blender_light_animation.glb"
    info = assetc_info(source)
    assert info["animatedLights"] == 1 and info["animations"] == 1 and info["warnings"] == [], info
    gltf = GLTF2().load(str(source))
    blob = gltf.binary_blob()

    def floats(index):
        accessor = gltf.accessors[index]
        view = gltf.bufferViews[accessor.bufferView]
        width = {"SCALAR": 1, "VEC3": 3}[accessor.type]
        start = (view.byteOffset or 0) + (accessor.byteOffset or 0)
        return numpy.frombuffer(blob[start:start + 4 * width * accessor.count], dtype="<f4").reshape(accessor.count, width)
    out = tmp_path / "blender_lights.usda"
    run_assetc("convert", "--force", str(source), str(out))
    got = usd_samples(out)
    (light,) = got
    (animation,) = gltf.animations
    seen = set()
    for channel in animation.channels:
        name = channel.target.extensions["KHR_animation_pointer"]["pointer"].rsplit("/", 1)[1]
        sampler = animation.samplers[channel.sampler]
        times, values = floats(sampler.input)[:, 0], floats(sampler.output)
        samples = got[light][name]
        assert [t for t, _ in samples] == pytest.approx(list(times), abs=1e-4), name
        assert numpy.allclose([v for _, v in samples], values, rtol=1e-5, atol=1e-5), name
        seen.add(name)
    assert seen == {"color", "intensity"}
