"""A small writer of Collada 1.4.1 text for fixtures and samples: enough structure that each
fixture states only its own feature."""


def floats(values):
    return " ".join(format(v, "g") for v in values)


def source(sid, values, names):
    count = len(values) // len(names)
    params = "".join(f'<param name="{n}" type="float"/>' for n in names)
    return (f'<source id="{sid}"><float_array id="{sid}-array" count="{len(values)}">{floats(values)}</float_array>'
            f'<technique_common><accessor source="#{sid}-array" count="{count}" stride="{len(names)}">{params}'
            f'</accessor></technique_common></source>')


def geometry(gid, positions, primitives, normals=None, texcoords=None, texcoords2=None, colors=None, name=None):
    """primitives: (kind, material symbol, inputs [(semantic, offset[, set])], p list or None, vcount or None[, raw body])."""
    sources = [source(f"{gid}-positions", positions, "XYZ")]
    ids = {"NORMAL": f"{gid}-normals", "COLOR": f"{gid}-colors"}
    if normals:
        sources.append(source(ids["NORMAL"], normals, "XYZ"))
    if texcoords:
        sources.append(source(f"{gid}-uv0", texcoords, "ST"))
    if texcoords2:
        sources.append(source(f"{gid}-uv1", texcoords2, "ST"))
    if colors:
        sources.append(source(ids["COLOR"], colors, "RGB"))
    body = []
    for primitive in primitives:
        kind, material, inputs, p, vcount = primitive[:5]
        raw = primitive[5] if len(primitive) > 5 else None
        inputs_xml = ""
        for entry in inputs:
            semantic, offset = entry[0], entry[1]
            if semantic == "VERTEX":
                target = f"{gid}-vertices"
            elif semantic == "TEXCOORD":
                target = f"{gid}-uv{entry[2]}"
            else:
                target = ids[semantic]
            set_attr = f' set="{entry[2]}"' if len(entry) > 2 else ""
            inputs_xml += f'<input semantic="{semantic}" source="#{target}" offset="{offset}"{set_attr}/>'
        stride = max(e[1] for e in inputs) + 1
        if raw is not None:
            count = raw.count("<p>")
            content = raw
        else:
            corners = len(p) // stride
            count = len(vcount) if vcount else corners // (3 if kind == "triangles" else 2)
            content = (f"<vcount>{' '.join(map(str, vcount))}</vcount>" if vcount else "") + f"<p>{' '.join(map(str, p))}</p>"
        material_attr = f' material="{material}"' if material else ""
        body.append(f'<{kind} count="{count}"{material_attr}>{inputs_xml}{content}</{kind}>')
    return (f'<geometry id="{gid}" name="{name or gid}"><mesh>{"".join(sources)}'
            f'<vertices id="{gid}-vertices"><input semantic="POSITION" source="#{gid}-positions"/></vertices>'
            f'{"".join(body)}</mesh></geometry>')


class Dae:
    def __init__(self, up="Y_UP", meter="1", unit="meter", tool="assetc fixture writer"):
        self.up, self.meter, self.unit, self.tool = up, meter, unit, tool
        self.geometries, self.effects, self.materials, self.images = [], [], [], []
        self.library_nodes, self.scene_nodes, self.extra_libraries = [], [], []

    def text(self):
        def library(name, items):
            return f"  <{name}>\n    " + "\n    ".join(items) + f"\n  </{name}>\n" if items else ""
        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                '<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">\n'
                f'  <asset><contributor><authoring_tool>{self.tool}</authoring_tool></contributor>'
                f'<unit name="{self.unit}" meter="{self.meter}"/><up_axis>{self.up}</up_axis></asset>\n'
                + library("library_images", self.images)
                + library("library_effects", self.effects)
                + library("library_materials", self.materials)
                + library("library_geometries", self.geometries)
                + "".join(self.extra_libraries)
                + library("library_nodes", self.library_nodes)
                + '  <library_visual_scenes>\n    <visual_scene id="Scene" name="Scene">\n      '
                + "\n      ".join(self.scene_nodes)
                + '\n    </visual_scene>\n  </library_visual_scenes>\n'
                '  <scene><instance_visual_scene url="#Scene"/></scene>\n</COLLADA>\n')
