"""Writes records_7500.fbx, a binary FBX 7.5 file (64-bit record fields) that Blender never makes:
every property type (Y C I L F D S R, and f d i l b arrays, raw and deflated), a cube whose arrays are
deflated, a model with pre-rotation, a pivot and rotation order ZXY animated by linear, constant and
cubic keys, a camera and a light, and a material whose texture is embedded in a Video's Content.
Run: python3 make_binary_fixtures.py (writes beside itself)."""
import os
import struct
import sys
import zlib

os.chdir(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ".")
from fbx_binary_writer import document, value

SECOND = 46186158000
CUBE = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1]
PVI = [0, 3, 2, -2, 4, 5, 6, -8, 0, 1, 5, -5, 2, 3, 7, -7, 1, 2, 6, -6, 0, 4, 7, -4]


def name(text, cls):
    return value("S", text + b"\x00\x01" + cls)


def p(prop, kind, *values):
    """A Properties70 P record: name, type, label, flags, values (D doubles, I ints, S strings)."""
    out = [value("S", prop), value("S", kind), value("S", b""), value("S", b"A")]
    for v in values:
        out.append(value("S", v) if isinstance(v, bytes) else value("I", v) if isinstance(v, int) else value("D", v))
    return (b"P", out, ())


def props(*entries):
    return (b"Properties70", [], list(entries))


def png_1x1():
    raw = b"\x00\xff\x00\x00\xff"
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


values = (b"Values", [value("Y", -7), value("C", True), value("I", -123456), value("L", 1 << 40), value("F", 1.5), value("D", -2.25),
                      value("S", b"text"), value("R", b"\x00\x01\x02"), value("f", [1.5, 2.5]), value("d", [0.125, 4], deflate=True),
                      value("i", [-1, 2, 3]), value("l", [1 << 33, -5], deflate=True), value("b", [True, False, True])], ())
cube = (b"Geometry", [value("L", 100), name(b"Cube", b"Geometry"), value("S", b"Mesh")],
        [(b"Vertices", [value("d", CUBE, deflate=True)], ()), (b"PolygonVertexIndex", [value("i", PVI, deflate=True)], ()),
         (b"LayerElementUV", [value("I", 0)], [(b"Name", [value("S", b"UVMap")], ()), (b"MappingInformationType", [value("S", b"ByVertice")], ()),
                                                 (b"ReferenceInformationType", [value("S", b"Direct")], ()),
                                                 (b"UV", [value("d", [c * 0.5 + 0.5 for k, c in enumerate(CUBE) if k % 3 != 2])], ())])])
spinner = (b"Model", [value("L", 200), name(b"Spinner", b"Model"), value("S", b"Mesh")],
           [props(p(b"RotationActive", b"bool", 1), p(b"PreRotation", b"Vector3D", 90.0, 0.0, 0.0), p(b"RotationPivot", b"Vector3D", 0.0, 1.0, 0.0),
                  p(b"RotationOrder", b"enum", 4), p(b"Lcl Translation", b"Lcl Translation", 1.0, 2.0, 3.0),
                  p(b"Lcl Rotation", b"Lcl Rotation", 10.0, 20.0, 30.0))])
camera_model = (b"Model", [value("L", 210), name(b"Eye", b"Model"), value("S", b"Camera")], [props(p(b"Lcl Translation", b"Lcl Translation", 0.0, 0.0, 10.0))])
camera = (b"NodeAttribute", [value("L", 211), name(b"Eye", b"NodeAttribute"), value("S", b"Camera")],
          [props(p(b"FieldOfViewY", b"FieldOfView", 40.0), p(b"NearPlane", b"double", 0.5), p(b"FarPlane", b"double", 500.0))])
lamp_model = (b"Model", [value("L", 220), name(b"Lamp", b"Model"), value("S", b"Light")], [])
lamp = (b"NodeAttribute", [value("L", 221), name(b"Lamp", b"NodeAttribute"), value("S", b"Light")],
        [props(p(b"LightType", b"enum", 1), p(b"Color", b"Color", 1.0, 0.5, 0.25), p(b"Intensity", b"Number", 200.0))])
material = (b"Material", [value("L", 300), name(b"Painted", b"Material"), value("S", b"")],
            [(b"ShadingModel", [value("S", b"phong")], ()), props(p(b"DiffuseColor", b"Color", 0.2, 0.4, 0.6), p(b"ShininessExponent", b"Number", 98.0))])
texture = (b"Texture", [value("L", 310), name(b"Paint", b"Texture"), value("S", b"")],
           [(b"RelativeFilename", [value("S", b"paint.png")], ()), props(p(b"UVSet", b"KString", b"UVMap"))])
video = (b"Video", [value("L", 320), name(b"Paint", b"Video"), value("S", b"Clip")],
         [(b"RelativeFilename", [value("S", b"paint.png")], ()), (b"Content", [value("R", png_1x1())], ())])
# LocalStart/LocalStop are KTime (int64): written as L values.
stack = (b"AnimationStack", [value("L", 400), name(b"Spin", b"AnimStack"), value("S", b"")],
         [props((b"P", [value("S", b"LocalStart"), value("S", b"KTime"), value("S", b"Time"), value("S", b""), value("L", 0)], ()),
                (b"P", [value("S", b"LocalStop"), value("S", b"KTime"), value("S", b"Time"), value("S", b""), value("L", 2 * SECOND)], ()))])
layer = (b"AnimationLayer", [value("L", 410), name(b"Base", b"AnimLayer"), value("S", b"")], [])
node = (b"AnimationCurveNode", [value("L", 420), name(b"R", b"AnimCurveNode"), value("S", b"")],
        [props(p(b"d|X", b"Number", 10.0), p(b"d|Y", b"Number", 20.0), p(b"d|Z", b"Number", 30.0))])


def curve(id_, keys, flags, counts, data):
    return (b"AnimationCurve", [value("L", id_), name(b"", b"AnimCurve"), value("S", b"")],
            [(b"KeyTime", [value("l", [int(t * SECOND) for t, _ in keys])], ()), (b"KeyValueFloat", [value("f", [v for _, v in keys])], ()),
             (b"KeyAttrFlags", [value("i", flags)], ()), (b"KeyAttrDataFloat", [value("f", data)], ()), (b"KeyAttrRefCount", [value("i", counts)], ())])


# X: linear 10 -> 40; Y: constant 20, then 50 from t=1; Z: cubic 30 -> 60 with slopes 0 (an ease).
curves = [curve(430, [(0, 10), (1, 40), (2, 40)], [0x4], [3], [0, 0, 0, 0]),
          curve(431, [(0, 20), (1, 50), (2, 50)], [0x2], [3], [0, 0, 0, 0]),
          curve(432, [(0, 30), (1, 60), (2, 60)], [0x8], [3], [0, 0, 0, 0])]
objects = (b"Objects", [], [values, cube, spinner, camera_model, camera, lamp_model, lamp, material, texture, video, stack, layer, node] + curves)


def c(child, parent, prop=None):
    if prop:
        return (b"C", [value("S", b"OP"), value("L", child), value("L", parent), value("S", prop)], ())
    return (b"C", [value("S", b"OO"), value("L", child), value("L", parent)], ())


connections = (b"Connections", [], [c(200, 0), c(100, 200), c(300, 200), c(310, 300, b"DiffuseColor"), c(320, 310), c(210, 0), c(211, 210),
                                    c(220, 0), c(221, 220), c(410, 400), c(420, 410), c(420, 200, b"Lcl Rotation"),
                                    c(430, 420, b"d|X"), c(431, 420, b"d|Y"), c(432, 420, b"d|Z")])
header = (b"FBXHeaderExtension", [], [(b"FBXVersion", [value("I", 7500)], ()), (b"Creator", [value("S", b"assetc make_binary_fixtures.py")], ())])
settings = (b"GlobalSettings", [], [props(p(b"UnitScaleFactor", b"double", 1.0), p(b"TimeMode", b"enum", 11))])
open("records_7500.fbx", "wb").write(document([header, settings, objects, connections], version=7500))
