"""Collada channel target forms (Tests/Fixtures/anim/collada_channels, one form per file) read as the XML
means them: each animated node's world matrix in assetc's usda, as usd-core computes it at several times,
equals the numpy evaluation of the channels straight from the XML (collada_channel_reference.py); clip
counts and lengths follow `<animation_clip start end>`; a morph on a morph keeps every target and its
animated weights; a channel on a material parameter the material model has no input for is named in a warning
(test_collada_material_animation.py follows the ones it has)."""
import math
import subprocess
import xml.etree.ElementTree as ET

import numpy
import pytest
from pxr import Usd, UsdGeom

from collada_channel_reference import NS, Document, usd_worlds
from conftest import FIXTURES, assetc_binary, assetc_info

FOLDER = FIXTURES / "anim" / "collada_channels"
NODE_CASES = ["component_targets.dae", "matrix_targets.dae", "lookat_skew_targets.dae", "clips.dae", "nested.dae", "material_channel.dae"]


@pytest.mark.parametrize("name", NODE_CASES)
def test_animated_nodes_follow_the_xml(name, tmp_path):
    reference = Document(FOLDER / name)
    clip = reference.clips[0] if reference.clips else None
    channels = reference.clip_channels(clip)
    nodes = reference.animated_nodes(channels)
    assert nodes, "the fixture animates something"
    if clip and clip[3] is not None:
        start, end = clip[2], clip[3]
    else:
        times = [t for c in channels for t in c[4].times]
        start, end = min(times), max(times)
    world = usd_worlds(FOLDER / name, tmp_path)
    # On keys and at eighths of each span (where assetc samples what does not move linearly in a
    # matrix: angles, axes, look-at points, whole matrices) the pose is exact; between those,
    # the writers' interpolation of the samples stays close.
    for node in nodes:
        exact = {start, end}
        for channel in channels:
            keys = channel[4].times
            if channel[1] == node:
                exact |= {a + (b - a) * j / 8 for a, b in zip(keys, keys[1:]) for j in range(8)} | set(keys)
        exact = sorted(t for t in exact if start <= t <= end)
        between = [(a + b) / 2 for a, b in zip(exact, exact[1:])]
        for times, tolerance in ((exact, 2e-4), (between, 0.03)):
            for seconds in times:
                expected, found = reference.world(node, seconds, channels), world(node, seconds)
                assert numpy.allclose(found, expected, atol=tolerance), f"{node} at {seconds:.3f} s:\n{found}\n!=\n{expected}"
    info = assetc_info(FOLDER / name)
    assert info["animatedNodes"] == len(reference.animated_nodes(reference.clip_channels()))


@pytest.mark.parametrize("name", NODE_CASES + ["morph_on_morph.dae"])
def test_clip_count_and_length_follow_the_clips(name):
    reference = Document(FOLDER / name)
    info = assetc_info(FOLDER / name)
    spans = [reference.span(clip) for clip in reference.clips] or [reference.span()]
    assert info["animations"] == len(spans)
    assert math.isclose(info["duration"], max(spans), abs_tol=1e-6), f"{info['duration']} != {max(spans)}"


def test_clips_play_their_own_span(tmp_path):
    """The walk clip keeps keys 1..3 of a 0..4 curve; on USD's one timeline it lies there, the wave clip
    (0..2) a second after it, and the layer's customLayerData says so, as usd-core reads it."""
    out = tmp_path / "clips.usda"
    subprocess.run([assetc_binary(), "convert", "--force", str(FOLDER / "clips.dae"), str(out)], check=True, capture_output=True)
    stage = Usd.Stage.Open(str(out))
    fps = stage.GetTimeCodesPerSecond()
    clips = stage.GetRootLayer().customLayerData["assetc"]
    assert list(clips["clipNames"]) == ["walk", "wave"]
    assert [s / fps for s in clips["clipStarts"]] == [1.0, 4.0] and [e / fps for e in clips["clipEnds"]] == [3.0, 6.0]
    assert [s / fps for s in clips["clipSourceStarts"]] == [1.0, 0.0]
    assert (stage.GetStartTimeCode() / fps, stage.GetEndTimeCode() / fps) == (1.0, 6.0)


def _geometry_points(root, gid):
    geometry = next(g for g in root.iter(NS + "geometry") if g.get("id") == gid)
    return numpy.array([float(v) for v in geometry.find(f".//{NS}float_array").text.split()]).reshape(-1, 3)


def test_a_morph_on_a_morph_keeps_every_target_and_weight():
    path = FOLDER / "morph_on_morph.dae"
    root = ET.parse(str(path)).getroot()
    base = _geometry_points(root, "Plate")
    offsets = {name: _geometry_points(root, name) for name in ("Raise", "Widen", "Twist")}
    reference = Document(path)
    names = {"InnerMorph-weights(0)": "Raise", "InnerMorph-weights(1)": "Widen", "OuterMorph-weights(0)": "Twist"}
    weights = {names[target]: curve for target, curve in reference.morph_channels.items()}
    assert sorted(weights) == sorted(offsets)
    info = assetc_info(path)
    assert info["blendShapes"] == 3 and info["warnings"] == []
    for seconds in (0.0, 0.5, 1.0, 1.5, 2.0):
        points = base + sum(weights[n].at(seconds)[0] * offsets[n] for n in offsets)
        posed = assetc_info_at(path, seconds)["bounds"]
        assert numpy.allclose(posed["min"], points.min(axis=0), atol=1e-4), (seconds, posed, points.min(axis=0))
        assert numpy.allclose(posed["max"], points.max(axis=0), atol=1e-4), (seconds, posed, points.max(axis=0))


def assetc_info_at(path, seconds):
    import json
    result = subprocess.run([assetc_binary(), "info", "--json", "--time", str(seconds), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_material_parameter_without_an_input_is_named_and_the_rest_is_read():
    info = assetc_info(FOLDER / "material_channel.dae")
    named = [w for w in info["warnings"] if "Paint-effect" in w]
    assert len(named) == 1 and "Paint-effect/common/specular" in named[0], info["warnings"]
    assert info["animatedNodes"] == 1 and info["animatedMaterials"] == 1


def test_channels_that_hold_still_are_animation_and_are_carried(tmp_path):
    """Issue 52: a clip whose keys hold still (COLLADA-CTS's 5 s clips of constant keys, one holding a
    scale of 0) counts every node it targets, and usdz and glb carry it: the held scale of 0 included."""
    text = (FOLDER / "component_targets.dae").read_text()
    for old, new in [('count="3">0 2 3<', 'count="3">0 0 0<'), ('count="2">0 90<', 'count="2">30 30<'),
                     ('"Stretch-input-array" count="2">0 1<', '"Stretch-input-array" count="2">0 5<'), ('count="2">1 3<', 'count="2">0 0<'),
                     ('count="2">0 1<', 'count="2">1 1<'), ('count="2">0 -4<', 'count="2">8 8<')]:
        assert old in text, old
        text = text.replace(old, new, 1)
    still = tmp_path / "still.dae"
    still.write_text(text)
    info = assetc_info(still)
    assert info["animatedNodes"] == 5 and info["duration"] == 5, info
    for kind in ("usdz", "glb"):
        out = tmp_path / f"still.{kind}"
        result = subprocess.run([assetc_binary(), "convert", str(still), str(out)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        back = assetc_info(out)
        assert back["animatedNodes"] == 5 and abs(back["duration"] - 5) < 1e-6, (kind, back["animatedNodes"], back["duration"])
    stage = Usd.Stage.Open(str(tmp_path / "still.usdz"))
    stretcher = next(p for p in stage.Traverse() if p.GetName() == "Stretcher")
    fps = stage.GetTimeCodesPerSecond()
    scale = stretcher.GetAttribute("xformOp:scale")
    assert scale.GetNumTimeSamples() >= 2 and scale.Get(Usd.TimeCode(2.5 * fps))[1] == 0
