"""Animation figures of a Collada file read straight from its XML (ElementTree), with pycollada's
reading of the skin controllers beside it where pycollada loads them (it cannot load a skin over a
morph): instanced skins and their joints, morph targets reached from instances, clips (each
<animation_clip>, else one when anything is animated) and the longest clip's span of key times."""
import xml.etree.ElementTree as ET

import collada

NS = {"c": "http://www.collada.org/2005/11/COLLADASchema"}


def _id(url):
    return url[1:] if url.startswith("#") else url


def counts(path):
    root = ET.parse(str(path)).getroot()
    controllers = {c.get("id"): c for c in root.iterfind(".//c:library_controllers/c:controller", NS)}
    skins, shapes, joints, skinned = set(), 0, 0, 0
    for instance in root.iterfind(".//c:library_visual_scenes//c:instance_controller", NS):
        url, skin_found, morph_seen = _id(instance.get("url")), False, set()
        for _ in range(8):
            controller = controllers.get(url)
            if controller is None:
                break
            skin, morph = controller.find("c:skin", NS), controller.find("c:morph", NS)
            if skin is not None and not skin_found:
                skin_found = True
                key = (url, tuple(s.text.strip() for s in instance.iterfind("c:skeleton", NS)))
                if key not in skins:
                    skins.add(key)
                    names = skin.find("c:source/c:Name_array", NS)
                    joints += len(names.text.split())
                skinned += 1
            if morph is not None and url not in morph_seen:
                morph_seen.add(url)
                shapes += len(morph.find("c:source/c:IDREF_array", NS).text.split())
            url = _id((skin if skin is not None else morph).get("source"))
    animations = {a.get("id"): a for a in root.iterfind(".//c:library_animations/c:animation", NS)}

    def span(ids):
        times = []
        for animation_id in ids:
            animation = animations[animation_id]
            sources = {s.get("id"): s for s in animation.iter("{%s}source" % NS["c"])}
            for sampler in animation.iter("{%s}sampler" % NS["c"]):
                for put in sampler.iterfind("c:input", NS):
                    if put.get("semantic") == "INPUT":
                        times += [float(t) for t in sources[_id(put.get("source"))].find("c:float_array", NS).text.split()]
        return max(times) - min(times) if times else 0.0

    clips = list(root.iterfind(".//c:library_animation_clips/c:animation_clip", NS))
    if clips:
        # A clip with an end plays from start to end, whatever its keys span.
        spans = [float(clip.get("end")) - float(clip.get("start", 0)) if clip.get("end") is not None
                 else span([_id(i.get("url")) for i in clip.iterfind("c:instance_animation", NS)]) for clip in clips]
    else:
        spans = [span(list(animations))] if animations else []
    return {"skeletons": len(skins), "joints": joints, "skinnedMeshes": skinned, "blendShapes": shapes,
            "animations": len(spans), "duration": max(spans, default=0.0)}


def pycollada_skin_joints(path):
    """Joint counts of the skins pycollada loads (skins over morphs are skipped by pycollada)."""
    document = collada.Collada(str(path), ignore=[collada.common.DaeBrokenRefError])
    return sorted(len(c.weight_joints.data) for c in document.controllers if isinstance(c, collada.controller.Skin))
