"""A small binary FBX writer for the hand-made fixtures: records written one by one, so a fixture
can hold exactly the values (and the faults) it is meant to. 7.5 and later use 64-bit record
fields."""
import struct
import zlib

HEADER = b"Kaydara FBX Binary  \x00\x1a\x00"


def value(kind, v, deflate=False):
    """One property: Y C I L F D S R scalars, f d i l b arrays (raw, or deflated)."""
    scalar = {"Y": "<h", "C": "<?", "I": "<i", "L": "<q", "F": "<f", "D": "<d"}
    if kind in scalar:
        return kind.encode() + struct.pack(scalar[kind], v)
    if kind in "SR":
        return kind.encode() + struct.pack("<I", len(v)) + v
    element = {"f": "f", "d": "d", "i": "i", "l": "q", "b": "?"}[kind]
    data = struct.pack("<%d%s" % (len(v), element), *v)
    if deflate:
        data = zlib.compress(data)
    return kind.encode() + struct.pack("<III", len(v), 1 if deflate else 0, len(data)) + data


def record(start, name, values, children=(), wide=False):
    """A record at byte `start`; children are (name, values, children) triples."""
    body = b"".join(values)
    head = (25 if wide else 13) + len(name)
    kids, at = b"", start + head + len(body)
    for child in children:
        data = record(at, *child, wide=wide)
        kids += data
        at += len(data)
    if children:
        kids += b"\x00" * (25 if wide else 13)
    end = start + head + len(body) + len(kids)
    fields = struct.pack("<QQQ", end, len(values), len(body)) if wide else struct.pack("<III", end, len(values), len(body))
    return fields + struct.pack("<B", len(name)) + name + body + kids


def document(top, version=7400):
    wide = version >= 7500
    out, at = HEADER + struct.pack("<I", version), 27
    for child in top:
        data = record(at, *child, wide=wide)
        out += data
        at += len(data)
    return out + b"\x00" * (25 if wide else 13) + b"\x00" * 160  # the end record and room for a footer


