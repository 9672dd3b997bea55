"""Writers for the binary files assetc's fixtures and samples need, using only the standard library.

write_usdz: a usdz package as the USDZ rules require: entries stored (no compression), each entry's
data starting at a multiple of 64 bytes, the root layer first, fixed timestamps so the bytes are the
same on every run. Options produce deliberately broken packages for fail-case fixtures.
write_png: an 8-bit RGB or RGBA PNG from rows of pixel tuples.
"""
import struct
import zipfile
import zlib

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)
_PAD_ID = 0x4153  # extra-field id for alignment padding; readers skip unknown ids


def write_usdz(path, entries, compress=False, align=True):
    """entries: list of (name, bytes); the first is the root layer."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
            info.create_system = 3
            if align and not compress:
                offset = zf.fp.tell() + 30 + len(name.encode()) + 4
                pad = (-offset) % 64
                info.extra = struct.pack("<HH", _PAD_ID, pad) + b"\0" * pad
            zf.writestr(info, data)


def patch_claimed_size(path, entry_name, claimed):
    """Rewrites an entry's sizes in both headers to `claimed`, leaving the data as it is."""
    data = bytearray(open(path, "rb").read())
    name = entry_name.encode()
    # Local file header: signature PK\3\4, sizes at +18 (compressed) and +22 (uncompressed).
    pos = data.find(b"PK\x03\x04" + b"")
    while pos != -1:
        name_len = struct.unpack_from("<H", data, pos + 26)[0]
        if data[pos + 30:pos + 30 + name_len] == name:
            struct.pack_into("<II", data, pos + 18, claimed, claimed)
            break
        pos = data.find(b"PK\x03\x04", pos + 4)
    # Central directory header: signature PK\1\2, sizes at +20 and +24, name at +46.
    pos = data.find(b"PK\x01\x02")
    while pos != -1:
        name_len = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + name_len] == name:
            struct.pack_into("<II", data, pos + 20, claimed, claimed)
        pos = data.find(b"PK\x01\x02", pos + 4)
    open(path, "wb").write(bytes(data))


def _local_headers(data, name):
    """Offsets of the local file headers (PK\\3\\4) whose entry is `name`."""
    pos = data.find(b"PK\x03\x04")
    while pos != -1:
        name_len = struct.unpack_from("<H", data, pos + 26)[0]
        if data[pos + 30:pos + 30 + name_len] == name:
            yield pos
        pos = data.find(b"PK\x03\x04", pos + 4)


def patch_crc(path, entry_name, crc):
    """Rewrites an entry's CRC-32 in both headers, leaving its data as it is."""
    data = bytearray(open(path, "rb").read())
    name = entry_name.encode()
    for pos in _local_headers(data, name):
        struct.pack_into("<I", data, pos + 14, crc)
    pos = data.find(b"PK\x01\x02")
    while pos != -1:
        name_len = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + name_len] == name:
            struct.pack_into("<I", data, pos + 16, crc)
        pos = data.find(b"PK\x01\x02", pos + 4)
    open(path, "wb").write(bytes(data))


def change_last_byte(path, entry_name, value):
    """Overwrites the last byte of a stored entry's data, leaving its recorded CRC as it was."""
    data = bytearray(open(path, "rb").read())
    name = entry_name.encode()
    for pos in _local_headers(data, name):
        name_len, extra_len = struct.unpack_from("<HH", data, pos + 26)
        size = struct.unpack_from("<I", data, pos + 22)[0]
        data[pos + 30 + name_len + extra_len + size - 1] = value
    open(path, "wb").write(bytes(data))


def write_png(path, width, height, pixel):
    """pixel(x, y) -> (r, g, b) or (r, g, b, a), 0-255."""
    sample = pixel(0, 0)
    channels = len(sample)
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    color_type = 6 if channels == 4 else 2
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
