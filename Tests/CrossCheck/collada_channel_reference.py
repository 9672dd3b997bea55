"""Collada node animation evaluated straight from the XML in numpy, independently of assetc: every node's
transform elements (translate, rotate, scale, matrix, lookat, skew) with their sids, the channels that
drive them (whole elements, `.X`/`.Y`/`.Z`/`.ANGLE` members, `(i)` and `(row)(col)` elements) from samplers
of LINEAR and STEP keys, nested animations, and clips with their start and end. World matrices are
column-vector 4x4 matrices (Collada's row-major text read as it is written)."""
import math
import xml.etree.ElementTree as ET

import numpy

NS = "{http://www.collada.org/2005/11/COLLADASchema}"
MEMBERS = {"X": 0, "Y": 1, "Z": 2, "ANGLE": 3, "R": 0, "G": 1, "B": 2, "A": 3}
KINDS = ("translate", "rotate", "scale", "matrix", "lookat", "skew")


def _floats(text):
    return [float(v) for v in text.split()]


def element_matrix(kind, v):
    m = numpy.identity(4)
    if kind == "translate":
        m[:3, 3] = v[:3]
    elif kind == "scale":
        m = numpy.diag([v[0], v[1], v[2], 1.0])
    elif kind == "rotate":
        axis = numpy.array(v[:3], dtype=float)
        axis = axis / numpy.linalg.norm(axis)
        a = math.radians(v[3])
        k = numpy.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        m[:3, :3] = numpy.identity(3) + math.sin(a) * k + (1 - math.cos(a)) * k @ k
    elif kind == "matrix":
        m = numpy.array(v, dtype=float).reshape(4, 4)
    elif kind == "lookat":
        eye, interest, up = numpy.array(v[0:3]), numpy.array(v[3:6]), numpy.array(v[6:9])
        f = (interest - eye) / numpy.linalg.norm(interest - eye)
        s = numpy.cross(f, up)
        s = s / numpy.linalg.norm(s)
        u = numpy.cross(s, f)
        m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = s, u, -f, eye
    elif kind == "skew":
        a = numpy.array(v[1:4]) / numpy.linalg.norm(v[1:4])
        b = numpy.array(v[4:7]) / numpy.linalg.norm(v[4:7])
        m[:3, :3] = numpy.identity(3) + math.tan(math.radians(v[0])) * numpy.outer(b, a)
    return m


class Curve:
    def __init__(self, times, values, stride, interpolations):
        self.times, self.values, self.stride, self.interpolations = times, values, stride, interpolations

    def at(self, t):
        times, n = self.times, self.stride
        key = lambda k: self.values[k * n:(k + 1) * n]
        if t <= times[0]:
            return key(0)
        if t >= times[-1]:
            return key(len(times) - 1)
        k = max(i for i in range(len(times)) if times[i] <= t)
        if self.interpolations and self.interpolations[k] == "STEP":
            return key(k)
        f = (t - times[k]) / (times[k + 1] - times[k])
        return [a + f * (b - a) for a, b in zip(key(k), key(k + 1))]


class Document:
    def __init__(self, path):
        root = ET.parse(str(path)).getroot()
        self.nodes, self.parents = {}, {}

        def walk(node, parent):
            if node.get("id"):
                self.nodes[node.get("id")] = [(child.tag[len(NS):], child.get("sid"), _floats(child.text))
                                              for child in node if child.tag[len(NS):] in KINDS]
                self.parents[node.get("id")] = parent
            for child in node.findall(NS + "node"):
                walk(child, node.get("id"))
        for scene in root.iter(NS + "visual_scene"):
            for node in scene.findall(NS + "node"):
                walk(node, None)
        self.morph_channels = {}  # target: curve
        self.channels = []  # (ids of the animations around it, node id, sid, component indices or None, curve)
        for animation in root.findall(f"{NS}library_animations/{NS}animation"):
            self._read_animation(animation, [])
        self.clips = [(clip.get("name") or clip.get("id"), [i.get("url")[1:] for i in clip.findall(NS + "instance_animation")],
                       float(clip.get("start", 0)), float(clip.get("end")) if clip.get("end") else None)
                      for clip in root.iter(NS + "animation_clip")]

    def _read_animation(self, animation, around):
        ids = around + [animation.get("id")]
        sources = {s.get("id"): s for s in animation.findall(NS + "source")}

        def source(semantic, sampler):
            for put in sampler.findall(NS + "input"):
                if put.get("semantic") == semantic:
                    return sources[put.get("source")[1:]]
            return None
        for channel in animation.findall(NS + "channel"):
            sampler = next(s for s in animation.findall(NS + "sampler") if s.get("id") == channel.get("source")[1:])
            times = _floats(source("INPUT", sampler).find(NS + "float_array").text)
            out = source("OUTPUT", sampler)
            stride = int(out.find(f"{NS}technique_common/{NS}accessor").get("stride", 1))
            names = source("INTERPOLATION", sampler)
            interpolations = names.find(NS + "Name_array").text.split() if names is not None else []
            curve = Curve(times, _floats(out.find(NS + "float_array").text), stride, interpolations)
            target = channel.get("target")
            if "/" not in target:  # a morph's weights, `morph-weights(i)`
                self.morph_channels[target] = curve
                continue
            node, rest = target.split("/", 1)
            components = None
            if "(" in rest:
                sid, indices = rest.split("(", 1)
                numbers = [int(p) for p in indices.replace(")", " ").replace("(", " ").split()]
                components = [numbers[0]] if len(numbers) == 1 else [numbers[0] * 4 + numbers[1]]
            elif "." in rest:
                sid, member = rest.split(".", 1)
                components = [MEMBERS[member.upper()]]
            else:
                sid = rest
            self.channels.append((ids, node, sid, components, curve))
        for child in animation.findall(NS + "animation"):
            self._read_animation(child, ids)

    def clip_channels(self, clip=None):
        if clip is None:
            return [c for c in self.channels if c[1] in self.nodes]
        wanted = set(clip[1])
        return [c for c in self.channels if wanted & set(c[0]) and c[1] in self.nodes]

    def local(self, node, t, channels):
        stack = [list(values) for _, _, values in self.nodes[node]]
        for _, target, sid, components, curve in channels:
            if target != node:
                continue
            k = next(i for i, (_, s, _) in enumerate(self.nodes[node]) if s == sid)
            value = curve.at(t)
            if components is None:
                stack[k] = list(value)
            else:
                for c, v in zip(components, value):
                    stack[k][c] = v
        m = numpy.identity(4)
        for (kind, _, _), values in zip(self.nodes[node], stack):
            m = m @ element_matrix(kind, values)
        return m

    def world(self, node, t, channels):
        m = self.local(node, t, channels)
        parent = self.parents[node]
        return m if parent is None else self.world(parent, t, channels) @ m

    def animated_nodes(self, channels):
        return sorted({c[1] for c in channels})

    def span(self, clip=None):
        """The clip's length: end - start where the clip says, else its keys' span."""
        channels = self.channels if clip is None else [c for c in self.channels if set(clip[1]) & set(c[0])]
        if clip is not None and clip[3] is not None:
            return clip[3] - clip[2]
        curves = [c[4] for c in channels] + (list(self.morph_channels.values()) if clip is None else [])
        times = [t for curve in curves for t in curve.times]
        return max(times) - min(times) if times else 0.0


def usd_worlds(path, tmp_path, names=None):
    """A function (prim name, seconds) -> world matrix of assetc's usda of `path`, as usd-core computes it.
    `names` maps a name asked for to the prim's name (Collada node ids to the names assetc gives them)."""
    import subprocess
    from pxr import Usd, UsdGeom
    from conftest import assetc_binary
    out = tmp_path / (path.stem + ".usda")
    result = subprocess.run([assetc_binary(), "convert", "--force", str(path), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    stage = Usd.Stage.Open(str(out))
    prims = {p.GetName(): UsdGeom.Xformable(p) for p in stage.Traverse() if p.IsA(UsdGeom.Xformable)}
    fps = stage.GetTimeCodesPerSecond()
    names = names or {}
    # The stage is held by the closure: its prims die with it.
    return lambda name, seconds, _stage=stage: numpy.array(prims[names.get(name, name)].ComputeLocalToWorldTransform(Usd.TimeCode(seconds * fps))).T


def usd_light_colours(path, tmp_path):
    """The light colours of assetc's usda of `path` as usd-core reads them: {light prim name: (seconds -> RGB)}."""
    import subprocess
    from pxr import Usd, UsdLux
    from conftest import assetc_binary
    out = tmp_path / (path.stem + "_lights.usda")
    result = subprocess.run([assetc_binary(), "convert", "--force", str(path), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    stage = Usd.Stage.Open(str(out))
    fps = stage.GetTimeCodesPerSecond()
    lights = {p.GetName(): UsdLux.LightAPI(p) for p in stage.Traverse() if p.HasAPI(UsdLux.LightAPI)}
    return {name: (lambda seconds, _light=light, _stage=stage: list(_light.GetColorAttr().Get(Usd.TimeCode(seconds * fps))))
            for name, light in lights.items()}
