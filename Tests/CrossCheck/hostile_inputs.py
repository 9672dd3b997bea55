"""Generates the hostile inputs whose claims are too large to commit: crate files whose tables
claim hundreds of millions of entries from LZ4 zero runs, values shared thousands of times over,
composition arcs that fan out exponentially, and instancing that multiplies one mesh. Each file is
small (at most a few MB); what it would cost a reader that expands it naively is not.

The crate files are written by a minimal crate writer of our own: usd-core's writer cannot make
malformed tables, and it stores shared values once only for some types."""
import struct

# MARK: LZ4 blocks and crate framing


def lz4_literals(data):
    """An LZ4 block holding `data` as one run of literals (valid, if uncompressed)."""
    out = bytearray()
    n = len(data)
    out.append((min(n, 15) << 4))
    if n >= 15:
        rest = n - 15
        while rest >= 255:
            out.append(255)
            rest -= 255
        out.append(rest)
    out += data
    return bytes(out)


def lz4_zeros(count):
    """An LZ4 block that decompresses to `count` zero bytes: one literal zero, a match repeating
    it, and the five literals a block must end with. About 1/255 of `count` long."""
    assert count > 20
    match = count - 1 - 5
    out = bytearray([0x1F, 0x00, 0x01, 0x00])
    rest = match - 4 - 15
    while rest >= 255:
        out.append(255)
        rest -= 255
    out.append(rest)
    out += bytes([0x50, 0, 0, 0, 0, 0])
    return bytes(out)


def compressed(data):
    """USD's framing of LZ4 data: a chunk count (0: one chunk) before the block."""
    return b"\0" + lz4_literals(data)


def coded_ints(values):
    """Integer coding with every delta stored full width (code 3), then LZ4-framed, sized."""
    n = len(values)
    buf = bytearray(struct.pack("<i", 0))
    buf += bytes([0xFF]) * ((n * 2 + 7) // 8)
    previous = 0
    for v in values:
        buf += struct.pack("<i", v - previous)
        previous = v
    body = compressed(bytes(buf))
    return struct.pack("<Q", len(body)) + body


def coded_zeros(count):
    """Integer coding of `count` zeros: common delta 0, every code 0, all as one LZ4 zero run."""
    body = b"\0" + lz4_zeros(4 + (count * 2 + 7) // 8)
    return struct.pack("<Q", len(body)) + body


# MARK: A minimal crate writer

TYPE_TOKEN, TYPE_INT, TYPE_VEC3F, TYPE_DICT, TYPE_SPECIFIER = 11, 3, 24, 31, 42
SPEC_ATTRIBUTE, SPEC_PRIM, SPEC_ROOT = 1, 6, 7


def rep(type_number, payload, inlined=False, array=False):
    return (array << 63) | (inlined << 62) | (type_number << 48) | payload


class Crate:
    """Prims directly under the root, each with attributes; values are reps the caller builds,
    stored bytes appended with `store`."""

    def __init__(self):
        self.tokens = [""]
        self.strings = []
        self.data = bytearray(b"PXR-USDC" + bytes([0, 8, 0]) + b"\0" * 77)  # 88-byte bootstrap
        self.fields = []
        self.field_sets = []
        self.prims = []  # (name, [field index], [(attribute name, [field index])])

    def token(self, text):
        if text not in self.tokens:
            self.tokens.append(text)
        return self.tokens.index(text)

    def string(self, text):
        self.strings.append(self.token(text))
        return len(self.strings) - 1

    def store(self, payload):
        offset = len(self.data)
        self.data += payload
        return offset

    def field(self, name, value_rep):
        self.fields.append((self.token(name), value_rep))
        return len(self.fields) - 1

    def field_set(self, fields):
        start = len(self.field_sets)
        self.field_sets += fields + [-1]
        return start

    def write(self, path, specs_override=None, paths_override=None):
        root_set = self.field_set([])
        # Depth first: the root, then each prim followed by its attributes.
        elements, jumps, specs = [0], [-1], [(0, root_set, SPEC_ROOT)]
        for p, (name, prim_fields, attributes) in enumerate(self.prims):
            position = len(elements)
            subtree = 1 + len(attributes)
            last = p == len(self.prims) - 1
            has_child = bool(attributes)
            jumps.append((-1 if last else subtree) if has_child else (-2 if last else 0))
            elements.append(self.token(name))
            specs.append((position, self.field_set(prim_fields), SPEC_PRIM))
            for a, (attribute, attribute_fields) in enumerate(attributes):
                jumps.append(-2 if a == len(attributes) - 1 else 0)
                elements.append(-self.token(attribute))
                specs.append((len(elements) - 1, self.field_set(attribute_fields), SPEC_ATTRIBUTE))
        sections = []

        def section(name, body):
            sections.append((name, self.store(body), len(body)))

        chars = b"".join(t.encode() + b"\0" for t in self.tokens)
        body = compressed(chars)
        section("TOKENS", struct.pack("<QQQ", len(self.tokens), len(chars), len(body)) + body)
        section("STRINGS", struct.pack("<Q", len(self.strings)) + b"".join(struct.pack("<I", s) for s in self.strings))
        reps = compressed(b"".join(struct.pack("<Q", r) for _, r in self.fields))
        section("FIELDS", struct.pack("<Q", len(self.fields)) + coded_ints([n for n, _ in self.fields])
                + struct.pack("<Q", len(reps)) + reps)
        section("FIELDSETS", struct.pack("<Q", len(self.field_sets)) + coded_ints(self.field_sets))
        n = len(elements)
        section("PATHS", paths_override or (struct.pack("<QQ", n, n) + coded_ints(list(range(n)))
                                            + coded_ints(elements) + coded_ints(jumps)))
        section("SPECS", specs_override or (struct.pack("<Q", len(specs)) + coded_ints([s[0] for s in specs])
                                            + coded_ints([s[1] for s in specs]) + coded_ints([s[2] for s in specs])))
        toc = len(self.data)
        self.data += struct.pack("<Q", len(sections))
        for name, start, size in sections:
            self.data += name.encode().ljust(16, b"\0") + struct.pack("<QQ", start, size)
        self.data[16:24] = struct.pack("<Q", toc)
        with open(path, "wb") as f:
            f.write(self.data)

    def mesh_prim(self, name, attributes):
        self.prims.append((name, [self.field("specifier", rep(TYPE_SPECIFIER, 0, inlined=True)),
                                  self.field("typeName", rep(TYPE_TOKEN, self.token("Mesh"), inlined=True))], attributes))


def crate_claims_many_paths(path, count=1 << 26):
    crate = Crate()
    crate.mesh_prim("Mesh", [])
    crate.write(path, paths_override=struct.pack("<QQ", count, count) + coded_zeros(count) * 3)


def crate_claims_many_specs(path, count=1 << 28):
    crate = Crate()
    crate.mesh_prim("Mesh", [])
    crate.write(path, specs_override=struct.pack("<Q", count) + coded_zeros(count) * 3)


def crate_shared_points(path, meshes=2000, points=1 << 20):
    """`meshes` meshes whose points are all one stored array of `points` points."""
    crate = Crate()
    pattern = struct.pack("<fff", 1.0, 2.0, 3.0)
    offset = crate.store(struct.pack("<Q", points) + pattern * points)
    points_type = crate.field("typeName", rep(TYPE_TOKEN, crate.token("point3f[]"), inlined=True))
    points_value = crate.field("default", rep(TYPE_VEC3F, offset, array=True))
    for m in range(meshes):
        crate.mesh_prim("M%d" % m, [("points", [points_type, points_value])])
    crate.write(path)


def crate_shared_dictionaries(path, levels=3, entries=10000):
    """customData nesting `levels` dictionaries, each of whose `entries` entries is the level below."""
    crate = Crate()
    keys = [crate.string("k%d" % i) for i in range(entries)]
    child = rep(TYPE_INT, 1, inlined=True)
    for _ in range(levels):
        # An entry: key, an offset of 8 to the value's rep, the rep.
        body = struct.pack("<Q", entries) + b"".join(struct.pack("<IqQ", k, 8, child) for k in keys)
        child = rep(TYPE_DICT, crate.store(body))
    crate.prims.append(("Data", [crate.field("specifier", rep(TYPE_SPECIFIER, 0, inlined=True)),
                                 crate.field("customData", child)], []))
    crate.write(path)


# MARK: Text layers and Collada


def usda_inherits_twice_over(path, classes=24):
    lines = ["#usda 1.0", ""]
    for c in range(classes):
        target = "</C%d>" % ((c + 1) % classes)
        lines.append('class "C%d" (inherits = [%s, %s]) { double size = %d }' % (c, target, target, c + 1))
    lines.append('def Cube "X" (inherits = </C0>) {}')
    open(path, "w").write("\n".join(lines) + "\n")


def usda_specializes_fan_out(path, depth=24):
    lines = ["#usda 1.0", ""]
    for d in range(depth):
        target = "</S%d>" % (d + 1)
        lines.append('class "S%d" (specializes = [%s, %s, %s]) { double size = %d }' % (d, target, target, target, d + 1))
    lines.append('class "S%d" { double size = 1 }' % depth)
    lines.append('def Cube "X" (specializes = </S0>) {}')
    open(path, "w").write("\n".join(lines) + "\n")


def usda_reference_fan_out(path, fan_out=8, depth=9):
    """Each prim of a level has `fan_out` children, each referencing the next level's prim:
    fan_out**depth prims once composed."""
    lines = ["#usda 1.0", ""]
    for d in range(depth):
        children = "\n".join('    def "c%d" (references = </L%d>) {}' % (c, d + 1) for c in range(fan_out))
        lines.append('def Xform "L%d" {\n%s\n}' % (d, children))
    lines.append('def Cube "L%d" { double size = 1 }' % depth)
    open(path, "w").write("\n".join(lines) + "\n")


def usda_many_references(path, points=100000, copies=1000):
    side = int(points ** 0.5)
    pts = ", ".join("(%d, %d, 0)" % (i % side, i // side) for i in range(side * side))
    quads = []
    for y in range(side - 1):
        for x in range(side - 1):
            i = y * side + x
            quads.append("%d, %d, %d, %d" % (i, i + 1, i + side + 1, i + side))
    lines = ["#usda 1.0", "", 'def Mesh "Source" {',
             "    point3f[] points = [%s]" % pts,
             "    int[] faceVertexCounts = [%s]" % ", ".join(["4"] * len(quads)),
             "    int[] faceVertexIndices = [%s]" % ", ".join(quads), "}"]
    for c in range(copies):
        lines.append('def "Copy%d" (references = </Source>) { double3 xformOp:translate = (%d, 0, 0)\n'
                     '    uniform token[] xformOpOrder = ["xformOp:translate"] }' % (c, c * side))
    open(path, "w").write("\n".join(lines) + "\n")


def dae_many_instances(path, triangles=10000, instances=60000, spacing=1):
    side = int((triangles // 2) ** 0.5) + 1
    positions = " ".join("%d %d 0" % (i % side, i // side) for i in range(side * side))
    indices = []
    for y in range(side - 1):
        for x in range(side - 1):
            i = y * side + x
            indices += [i, i + 1, i + side, i + 1, i + side + 1, i + side]
    count = len(indices) // 3
    nodes = "\n".join('<node id="n%d"><translate>%d 0 0</translate><instance_geometry url="#g"/></node>' % (i, i * spacing)
                      for i in range(instances))
    open(path, "w").write(f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="{side * side * 3}">{positions}</float_array>
<technique_common><accessor source="#pa" count="{side * side}" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="{count}"><input semantic="VERTEX" source="#v" offset="0"/><p>{" ".join(map(str, indices))}</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s">
{nodes}
</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""")


# name -> the function writing it
GENERATORS = {
    "crate_claims_many_paths.usdc": crate_claims_many_paths,
    "crate_claims_many_specs.usdc": crate_claims_many_specs,
    "crate_shared_points.usdc": crate_shared_points,
    "crate_shared_dictionaries.usdc": crate_shared_dictionaries,
    "inherits_twice_over.usda": usda_inherits_twice_over,
    "specializes_fan_out.usda": usda_specializes_fan_out,
    "reference_fan_out.usda": usda_reference_fan_out,
    "many_references.usda": usda_many_references,
    "many_instances.dae": dae_many_instances,
    # Issue 62: under the work budget (1.96 x 10^8 triangles) but all at one spot, drawn for minutes once.
    "same_place_instances.dae": lambda path: dae_many_instances(path, instances=20000, spacing=0),
}


if __name__ == "__main__":
    import os
    import sys
    target = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(target, exist_ok=True)
    for name, generate in GENERATORS.items():
        generate(os.path.join(target, name))
        print(name, os.path.getsize(os.path.join(target, name)))
