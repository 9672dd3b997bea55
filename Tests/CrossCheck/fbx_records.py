"""A binary FBX file as nested records, read by the tests from the published layout (a 27-byte header, then
records of end offset, property count, property bytes, name and properties, nested records closed by a null record;
7.5 widens the three counts to 64 bits). Independent of assetc's reader: the tests judge assetc's writer with it."""
import struct
import zlib

ARRAY = {"f": ("<f", 4), "d": ("<d", 8), "l": ("<q", 8), "i": ("<i", 4), "b": ("<?", 1)}
SCALAR = {"Y": ("<h", 2), "C": ("<?", 1), "I": ("<i", 4), "F": ("<f", 4), "D": ("<d", 8), "L": ("<q", 8)}


class Record:
    def __init__(self, name, values, children):
        self.name, self.values, self.children = name, values, children

    def find(self, name):
        return next((c for c in self.children if c.name == name), None)

    def all(self, name):
        return [c for c in self.children if c.name == name]

    def properties(self):
        """Properties70's P records as name -> values after the four type strings."""
        block = self.find("Properties70")
        return {p.values[0]: p.values[4:] for p in (block.all("P") if block else [])}


def read(path):
    data = open(path, "rb").read()
    assert data[:21] == b"Kaydara FBX Binary  \x00" and data[21:23] == b"\x1a\x00", "not a binary FBX"
    version = struct.unpack_from("<I", data, 23)[0]
    wide = version >= 7500
    offset = 27
    top = []
    while True:
        record, offset = _record(data, offset, wide)
        if record is None:
            break
        top.append(record)
    return version, Record("", [], top), data[offset:]


def _record(data, offset, wide):
    if wide:
        end, count, _ = struct.unpack_from("<QQQ", data, offset)
        offset += 24
    else:
        end, count, _ = struct.unpack_from("<III", data, offset)
        offset += 12
    length = data[offset]
    offset += 1
    if end == 0:
        return None, offset
    name = data[offset:offset + length].decode()
    offset += length
    values = []
    for _ in range(count):
        code = chr(data[offset])
        offset += 1
        if code in SCALAR:
            fmt, size = SCALAR[code]
            values.append(struct.unpack_from(fmt, data, offset)[0])
            offset += size
        elif code in ARRAY:
            n, encoding, stored = struct.unpack_from("<III", data, offset)
            offset += 12
            raw = data[offset:offset + stored]
            offset += stored
            if encoding == 1:
                raw = zlib.decompress(raw)
            fmt, size = ARRAY[code]
            assert len(raw) == n * size, f"{name}: array of {n} holds {len(raw)} bytes"
            values.append(list(struct.unpack("<" + fmt[1] * n, raw)))
        elif code in "SR":
            n = struct.unpack_from("<I", data, offset)[0]
            offset += 4
            raw = data[offset:offset + n]
            offset += n
            values.append(raw.decode("utf-8", "replace") if code == "S" else raw)
        else:
            raise ValueError(f"{name}: unknown property type {code!r} at {offset}")
    children = []
    while offset < end:
        child, offset = _record(data, offset, wide)
        if child is None:
            break
        children.append(child)
    return Record(name, values, children), end


def dump(record, depth=0, limit=6):
    for child in record.children:
        shown = [v if not isinstance(v, (list, bytes)) else f"<{len(v)}>" for v in child.values][:limit]
        print("  " * depth + child.name, shown)
        dump(child, depth + 1, limit)


if __name__ == "__main__":
    import sys
    version, root, tail = read(sys.argv[1])
    print("version", version, "footer bytes", len(tail))
    dump(root)
