"""The Khronos COLLADA conformance suite's half in ../shared/conformance/collada-cts (read where it lies), every
file with animation channels, read against the COLLADA 1.4.1 specification as Python's XML parser reads the file
(collada_channel_reference.py): which channels make a clip (node transforms, morph weights, effect
parameters), each clip's span (`<animation_clip start end>`, else the keys' span), and at every
key time each animated node's world matrix in assetc's usda as usd-core computes it equals the matrix the XML's
transform elements and channel values give, and each animated light's colour (`light/color`, `.R`, `(0)`) equals
the channel values the XML gives. A channel whose target the scene model cannot hold (a light's attenuation, a
camera's field of view) is named in a warning, one per channel."""
import xml.etree.ElementTree as ET

import numpy
import pytest

from collada_channel_reference import NS, Document, usd_light_colours, usd_worlds
from conftest import ROOT, assetc_info

CTS = ROOT.parent / "shared" / "conformance" / "collada-cts"
FILES = sorted(p for p in CTS.rglob("*.dae") if b"<channel" in p.read_bytes()) if CTS.is_dir() else []


def node_names(path):
    """Collada node id -> the name assetc gives the node (its `name`, else its id)."""
    root = ET.parse(str(path)).getroot()
    return {n.get("id"): n.get("name") or n.get("id") for n in root.iter(NS + "node") if n.get("id")}


@pytest.mark.skipif(not FILES, reason="the COLLADA conformance half is not at ../shared/conformance")
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CTS)) for p in FILES])
def test_clips_and_keyed_poses_follow_the_xml(path, tmp_path):
    reference = Document(path)
    info = assetc_info(path)
    root = ET.parse(str(path)).getroot()
    light_ids = {e.get("id") for e in root.iter(NS + "light")}
    on_lights = [c for c in reference.channels if c[1] in light_ids and c[2] == "color"]
    unheld = [c.get("target") for c in root.iter(NS + "channel")
              if "/" in c.get("target") and c.get("target").split("/")[0] not in reference.nodes
              and any(e.get("id") == c.get("target").split("/")[0] for tag in ("light", "camera") for e in root.iter(NS + tag))
              and not (c.get("target").split("/")[0] in light_ids and c.get("target").split("/")[1].split(".")[0].split("(")[0] == "color")]
    for target in unheld:
        assert any(target in w for w in info["warnings"]), f"channel {target} left out without a word: {info['warnings']}"
    # What the scene model holds: node transforms, morph weights, and effect parameters (material animation).
    effects = {e.get("id") for e in root.iter(NS + "effect")}
    on_effects = [c.get("target") for c in root.iter(NS + "channel") if c.get("target").split("/")[0] in effects]
    held = reference.clip_channels() or reference.morph_channels or on_effects or on_lights
    if reference.clips:
        assert info["animations"] == len(reference.clips)
        assert numpy.isclose(info["duration"], max(reference.span(clip) for clip in reference.clips), atol=1e-6)
    elif reference.morph_channels and not reference.clip_channels() and info["animations"] == 0:
        # Every weight it keys drives a target the file does not define (the DOM parser cases' MouthShape).
        for target in reference.morph_channels:
            assert any(target in w and "left out" in w for w in info["warnings"]), f"{target} ignored without a word: {info['warnings']}"
    elif held:
        assert info["animations"] == 1, f"{info['animations']} clips; the file keys {len(reference.channels)} node channels"
        assert numpy.isclose(info["duration"], reference.span(), atol=1e-6), (info["duration"], reference.span())
    else:
        assert info["animations"] == 0
    if on_lights and not reference.clips:
        colours = usd_light_colours(path, tmp_path)
        assert info["animatedLights"] == len({c[1] for c in on_lights}) == len(colours), (info["animatedLights"], list(colours))
        start = min(t for c in on_lights for t in c[4].times)
        for light in {c[1] for c in on_lights}:
            name = next(e.get("name") or e.get("id") for e in root.iter(NS + "light") if e.get("id") == light)
            # The light's prim takes the name of the node that places it; match by the one animated light when names differ.
            colour = colours.get(name) or next(iter(colours.values()))
            for _, _, _, components, curve in (c for c in on_lights if c[1] == light):
                for k, seconds in enumerate(curve.times):
                    value = curve.values[k * curve.stride:(k + 1) * curve.stride]
                    found = colour(seconds - start)
                    for c, v in zip(components or range(3), value):
                        assert abs(found[c] - v) < 1e-5, f"{light} component {c} at {seconds} s: {found} != {value}"
    channels = reference.clip_channels()
    if not channels or reference.clips:
        return
    world = usd_worlds(path, tmp_path, names=node_names(path))
    start = min(t for c in channels for t in c[4].times)
    for node in reference.animated_nodes(channels):
        for seconds in sorted({t for c in channels if c[1] == node for t in c[4].times}):
            expected, found = reference.world(node, seconds, channels), world(node, seconds - start)
            scale = max(1.0, numpy.abs(expected).max())
            assert numpy.allclose(found, expected, atol=2e-4 * scale), f"{node} at {seconds:.3f} s:\n{found}\n!=\n{expected}"
