"""Writes the FBX fail-cases into fail-case/ (their expectations are in fail-case.json): binary FBX
written record by record, so each file breaks exactly one rule, and one ASCII file. Run:
python3 make_fbx_failcases.py (writes beside itself)."""
import os
import struct
import sys
import zlib

os.chdir(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ".")
from fbx_binary_writer import document, value


CUBE = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1]
PVI = [0, 3, 2, -2, 4, 5, 6, -8, 0, 1, 5, -5, 2, 3, 7, -7, 1, 2, 6, -6, 0, 4, 7, -4]


def geometry(id_=100, vertices=None):
    return (b"Geometry", [value("L", id_), value("S", b"Cube\x00\x01Geometry"), value("S", b"Mesh")],
            [(b"Vertices", [vertices or value("d", CUBE)], ()), (b"PolygonVertexIndex", [value("i", PVI)], ())])


def model(id_, name):
    return (b"Model", [value("L", id_), value("S", name + b"\x00\x01Model"), value("S", b"Mesh")], ())


def connect(child, parent):
    return (b"C", [value("S", b"OO"), value("L", child), value("L", parent)], ())


good = document([(b"Objects", [], [geometry(), model(200, b"Box")]), (b"Connections", [], [connect(200, 0), connect(100, 200)])])
open("fail-case/truncated_record.fbx", "wb").write(good[:len(good) // 2])

# A record whose end offset points back before its own start.
broken = bytearray(good)
struct.pack_into("<I", broken, 27, 20)
open("fail-case/end_offset_backwards.fbx", "wb").write(bytes(broken))

# Vertices claiming 2^31 doubles in a 24-byte array.
huge = b"d" + struct.pack("<III", 1 << 31, 0, 24) + struct.pack("<3d", 0, 0, 0)
open("fail-case/array_claims_2e31.fbx", "wb").write(document([(b"Objects", [], [geometry(vertices=huge), model(200, b"Box")]),
                                                             (b"Connections", [], [connect(200, 0), connect(100, 200)])]))

# A deflated array of 3 doubles that inflates to 24 doubles.
packed = zlib.compress(struct.pack("<24d", *CUBE))
over = b"d" + struct.pack("<III", 3, 1, len(packed)) + packed
open("fail-case/deflate_past_claim.fbx", "wb").write(document([(b"Objects", [], [geometry(vertices=over), model(200, b"Box")]),
                                                              (b"Connections", [], [connect(200, 0), connect(100, 200)])]))

# A large deflated array (inflated after the walk, on all cores) claiming 120,000 doubles that
# inflates to 24.
short = b"d" + struct.pack("<III", 120000, 1, len(packed)) + packed
open("fail-case/deflate_large_short.fbx", "wb").write(document([(b"Objects", [], [geometry(vertices=short), model(200, b"Box")]),
                                                               (b"Connections", [], [connect(200, 0), connect(100, 200)])]))

# Two models, each the other's parent.
open("fail-case/connection_cycle.fbx", "wb").write(document([(b"Objects", [], [geometry(), model(200, b"A"), model(201, b"B")]),
                                                            (b"Connections", [], [connect(200, 201), connect(201, 200), connect(100, 200)])]))

# A skin cluster weighting point 999 of an 8-point cube.
cluster = (b"Deformer", [value("L", 301), value("S", b"Bone\x00\x01SubDeformer"), value("S", b"Cluster")],
           [(b"Indexes", [value("i", [0, 1, 999])], ()), (b"Weights", [value("d", [1, 1, 1])], ())])
skin = (b"Deformer", [value("L", 300), value("S", b"Skin\x00\x01Deformer"), value("S", b"Skin")], ())
bone = (b"Model", [value("L", 400), value("S", b"Bone\x00\x01Model"), value("S", b"LimbNode")], ())
open("fail-case/cluster_past_vertices.fbx", "wb").write(document([
    (b"Objects", [], [geometry(), model(200, b"Box"), skin, cluster, bone]),
    (b"Connections", [], [connect(200, 0), connect(100, 200), connect(400, 0), connect(300, 100), connect(301, 300), connect(400, 301)])]))

# An FBX 6.1 binary file: assetc reads 6.1 as ASCII only.
open("fail-case/binary_version_6100.fbx", "wb").write(document([(b"Objects", [], [])], version=6100))

# ASCII with a RotationOrder far past any integer (found by the fuzzer: it trapped a conversion).
open("fail-case/rotation_order_huge.fbx", "w").write('; FBX 7.4.0 project file\nObjects:  {\n\tModel: 1, "Model::Spun", "Null" {\n'
                                                    '\t\tProperties70:  {\n\t\t\tP: "RotationOrder", "enum", "", "",' + "3" * 90 + '\n\t\t}\n\t}\n}\n'
                                                    'Connections:  {\n\tC: "OO",1,0\n}\n')

# ASCII with a string that never closes.
open("fail-case/unterminated_string.fbx", "w").write('; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n\tCreator: "half a name\n}\n')
