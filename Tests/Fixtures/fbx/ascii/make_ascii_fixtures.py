"""Writes the hand-written ASCII FBX fixtures (Blender's exporter writes only binary FBX, and only
what Blender has): transforms.fbx (pivots, offsets, pre/post rotation, every rotation order,
geometric transforms, a mirror, a child of a pivoted parent), layers.fbx (every layer element
mapping and reference mode, per-polygon materials) and v61.fbx (the FBX 6.1 grammar). Run:
python3 make_ascii_fixtures.py (writes beside itself)."""
import os

os.chdir(os.path.dirname(os.path.abspath(__file__)))

cube_v = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1]
faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [1, 2, 6, 5], [0, 4, 7, 3]]
pvi = []
for f in faces:
    pvi += f[:-1] + [-(f[-1]) - 1]


def arr(values, fmt="%g"):
    return "*%d {\n\t\t\ta: %s\n\t\t}" % (len(values), ",".join(fmt % v for v in values))


models = [
    ("Plain", [("Lcl Translation", "Lcl Translation", "", "A", (0, 0, 0))]),
    ("Pivoted", [("Lcl Translation", "Lcl Translation", "", "A", (5, 0, 0)), ("Lcl Rotation", "Lcl Rotation", "", "A", (0, 0, 90)),
                 ("RotationPivot", "Vector3D", "Vector", "", (1, 1, 0)), ("RotationOffset", "Vector3D", "Vector", "", (0, 2, 0)),
                 ("ScalingPivot", "Vector3D", "Vector", "", (0, 1, 0)), ("Lcl Scaling", "Lcl Scaling", "", "A", (2, 1, 1)),
                 ("ScalingOffset", "Vector3D", "Vector", "", (0, 0, 1))]),
    ("PrePost", [("Lcl Translation", "Lcl Translation", "", "A", (-5, 0, 0)), ("RotationActive", "bool", "", "", 1),
                 ("PreRotation", "Vector3D", "Vector", "", (30, 0, 0)), ("PostRotation", "Vector3D", "Vector", "", (0, 45, 0)),
                 ("Lcl Rotation", "Lcl Rotation", "", "A", (0, 0, 20)), ("Lcl Scaling", "Lcl Scaling", "", "A", (1, 3, 1))]),
]
for order in range(6):
    models.append(("Order%d" % order, [("Lcl Translation", "Lcl Translation", "", "A", (0, 10 + 5 * order, 0)),
                                        ("RotationOrder", "enum", "", "", order), ("Lcl Rotation", "Lcl Rotation", "", "A", (30, 60, 90)),
                                        ("Lcl Scaling", "Lcl Scaling", "", "A", (1, 2, 3))]))
models.append(("Geometric", [("Lcl Translation", "Lcl Translation", "", "A", (0, -10, 0)), ("Lcl Rotation", "Lcl Rotation", "", "A", (0, 90, 0)),
                             ("GeometricTranslation", "Vector3D", "Vector", "", (0, 0, 3)), ("GeometricRotation", "Vector3D", "Vector", "", (45, 0, 0)),
                             ("GeometricScaling", "Vector3D", "Vector", "", (1, 1, 2))]))
models.append(("Mirrored", [("Lcl Translation", "Lcl Translation", "", "A", (0, -20, 0)), ("Lcl Scaling", "Lcl Scaling", "", "A", (-1, 1, 1))]))
models.append(("Child", [("Lcl Translation", "Lcl Translation", "", "A", (0, 0, 4)), ("Lcl Rotation", "Lcl Rotation", "", "A", (90, 0, 0))]))


def prop(p):
    name, type_, label, flags, value = p
    vals = ",".join("%g" % v for v in value) if isinstance(value, tuple) else "%g" % value
    return '\t\t\tP: "%s", "%s", "%s", "%s",%s' % (name, type_, label, flags, vals)


lines = ["; FBX 7.4.0 project file", "; hand-written by make_ascii_fixtures.py for assetc's transform-stack tests",
         "FBXHeaderExtension:  {", "\tFBXHeaderVersion: 1003", "\tFBXVersion: 7400", '\tCreator: "assetc make_ascii_fixtures.py"', "}",
         "GlobalSettings:  {", "\tVersion: 1000", "\tProperties70:  {",
         '\t\tP: "UpAxis", "int", "Integer", "",1', '\t\tP: "UpAxisSign", "int", "Integer", "",1',
         '\t\tP: "FrontAxis", "int", "Integer", "",2', '\t\tP: "FrontAxisSign", "int", "Integer", "",1',
         '\t\tP: "CoordAxis", "int", "Integer", "",0', '\t\tP: "CoordAxisSign", "int", "Integer", "",1',
         '\t\tP: "UnitScaleFactor", "double", "Number", "",100', "\t}", "}",
         "Objects:  {",
         '\tGeometry: 100, "Geometry::Cube", "Mesh" {',
         "\t\tVertices: " + arr(cube_v), "\t\tPolygonVertexIndex: " + arr(pvi, "%d"), "\t\tGeometryVersion: 124", "\t}"]
for k, (name, props) in enumerate(models):
    lines += ['\tModel: %d, "Model::%s", "Mesh" {' % (200 + k, name), "\t\tVersion: 232", "\t\tProperties70:  {"]
    lines += [prop(p) for p in props]
    lines += ["\t\t}", "\t}"]
lines += ["}", "Connections:  {"]
for k, (name, _) in enumerate(models):
    parent = 200 + [m[0] for m in models].index("Pivoted") if name == "Child" else 0
    lines += ["\t;Model::%s" % name, '\tC: "OO",%d,%d' % (200 + k, parent), '\tC: "OO",100,%d' % (200 + k)]
lines += ["}", ""]
open("transforms.fbx", "w").write("\n".join(lines))


# layers.fbx: three geometries on a strip of two quads and a triangle (7 points), each layer element
# in another MappingInformationType and ReferenceInformationType, and per-polygon materials.
strip = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0, 3, 1, 0]
polygons = [[0, 1, 4, 3], [1, 2, 5, 4], [2, 6, 5]]
strip_pvi = []
for p in polygons:
    strip_pvi += p[:-1] + [-p[-1] - 1]
corners = [v for p in polygons for v in p]
# Edges: each edge by the polygon-vertex index that starts it (first appearance).
edges, seen, edge_points = [], set(), []
k = 0
for p in polygons:
    for i in range(len(p)):
        key = tuple(sorted((p[i], p[(i + 1) % len(p)])))
        if key not in seen:
            seen.add(key)
            edges.append(k + i)
            edge_points.append(key)
    k += len(p)


def layer(kind, index, mapping, reference, name, data_name, data, index_name=None, indices=None, fmt="%g"):
    out = ['\t\tLayerElement%s: %d {' % (kind, index), '\t\t\tVersion: 101', '\t\t\tName: "%s"' % name,
           '\t\t\tMappingInformationType: "%s"' % mapping, '\t\t\tReferenceInformationType: "%s"' % reference,
           '\t\t\t%s: %s' % (data_name, arr(data, fmt))]
    if index_name:
        out.append('\t\t\t%s: %s' % (index_name, arr(indices, "%d")))
    return out + ['\t\t}']


def uv_of(v):
    return [strip[3 * v] / 3, strip[3 * v + 1]]


up = [0, 0, 1]
geometries = {
    # ByPolygonVertex Direct normals; ByPolygonVertex IndexToDirect UVs; ByVertice Direct colours; ByPolygon materials.
    "Corners": (layer("Normal", 0, "ByPolygonVertex", "Direct", "", "Normals", up * len(corners))
                + layer("UV", 0, "ByPolygonVertex", "IndexToDirect", "UVMap", "UV", sum((uv_of(v) for v in range(7)), []), "UVIndex", corners)
                + layer("UV", 1, "ByPolygonVertex", "Direct", "Second", "UV", sum(([0.5 * a for a in uv_of(v)] for v in corners), []))
                + layer("Color", 0, "ByVertice", "Direct", "Col", "Colors", sum(([v / 7, 0, 1 - v / 7, 1] for v in range(7)), []))
                + layer("Material", 0, "ByPolygon", "IndexToDirect", "", "Materials", [0, 1, 0], fmt="%d")),
    # ByVertice IndexToDirect normals; ByVertice Direct UVs; ByPolygon IndexToDirect colours; AllSame material.
    "Points": (layer("Normal", 0, "ByVertice", "IndexToDirect", "", "Normals", [0, 0, 1, 0, 0.6, 0.8], "NormalsIndex", [0, 0, 1, 0, 1, 1, 0])
               + layer("UV", 0, "ByVertice", "Direct", "UVMap", "UV", sum((uv_of(v) for v in range(7)), []))
               + layer("Color", 0, "ByPolygon", "IndexToDirect", "Col", "Colors", [1, 0, 0, 1, 0, 1, 0, 1], "ColorIndex", [0, 1, 0])
               + layer("Material", 0, "AllSame", "IndexToDirect", "", "Materials", [1], fmt="%d")),
    # ByPolygon Direct normals; ByPolygonVertex Index UVs; ByEdge UVs (each edge's value its two points,
    # lower first); AllSame colours; ByEdge smoothing.
    "Faces": (layer("Normal", 0, "ByPolygon", "Direct", "", "Normals", [0, 0, 1, 0, 0, 1, 0, 0.6, 0.8])
              + layer("UV", 0, "ByPolygonVertex", "Index", "UVMap", "UV", sum((uv_of(v) for v in range(7)), []), "UVIndex", corners)
              + layer("UV", 1, "ByEdge", "Direct", "Edges", "UV", sum((sorted(edge_points[e]) for e in range(len(edges))), []))
              + layer("Color", 0, "AllSame", "Direct", "Col", "Colors", [0.2, 0.4, 0.6, 1])
              + layer("Smoothing", 0, "ByEdge", "Direct", "", "Smoothing", [1] * len(edges), fmt="%d")),
}
lines = ["; FBX 7.4.0 project file", "; hand-written by make_ascii_fixtures.py: every layer element mapping and reference mode",
         "FBXHeaderExtension:  {", "\tFBXVersion: 7400", '\tCreator: "assetc make_ascii_fixtures.py"', "}", "Objects:  {"]
for g, (name, layers) in enumerate(geometries.items()):
    lines += ['\tGeometry: %d, "Geometry::%s", "Mesh" {' % (300 + g, name), "\t\tVertices: " + arr(strip),
              "\t\tPolygonVertexIndex: " + arr(strip_pvi, "%d"), "\t\tEdges: " + arr(edges, "%d")] + layers
    lines += ["\t\tLayer: 0 {", "\t\t\tVersion: 100", "\t\t}", "\t}"]
    lines += ['\tModel: %d, "Model::%s", "Mesh" {' % (400 + g, name), "\t\tProperties70:  {",
              '\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",0,%d,0' % (2 * g), "\t\t}", "\t}"]
for m, (name, colour) in enumerate((("Red", (0.8, 0.1, 0.1)), ("Green", (0.1, 0.8, 0.1)))):
    lines += ['\tMaterial: %d, "Material::%s", "" {' % (500 + m, name), '\t\tShadingModel: "phong"', "\t\tProperties70:  {",
              '\t\t\tP: "DiffuseColor", "Color", "", "A",%g,%g,%g' % colour, '\t\t\tP: "ShininessExponent", "Number", "", "A",20', "\t\t}", "\t}"]
lines += ["}", "Connections:  {"]
for g in range(3):
    lines += ['\tC: "OO",%d,0' % (400 + g), '\tC: "OO",%d,%d' % (300 + g, 400 + g), '\tC: "OO",500,%d' % (400 + g), '\tC: "OO",501,%d' % (400 + g)]
lines += ["}", ""]
open("layers.fbx", "w").write("\n".join(lines))


# v61.fbx: the FBX 6.1 grammar. Objects are named, not numbered; the geometry sits inside its model;
# Properties60 has no label column; long lists wrap onto lines that begin with their comma.
v61 = """; FBX 6.1.0 project file
; hand-written by make_ascii_fixtures.py
; ----------------------------------------------------

FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
	FBXVersion: 6100
	Creator: "assetc make_ascii_fixtures.py"
}

Definitions:  {
	Version: 100
	Count: 2
	ObjectType: "Model" {
		Count: 1
	}
	ObjectType: "Material" {
		Count: 1
	}
}

Objects:  {
	Model: "Model::Box", "Mesh" {
		Version: 232
		Properties60:  {
			Property: "QuaternionInterpolate", "bool", "",0
			Property: "Lcl Translation", "Lcl Translation", "A+",1,2,3
			Property: "Lcl Rotation", "Lcl Rotation", "A+",0,90,0
			Property: "Lcl Scaling", "Lcl Scaling", "A+",2,1,1
		}
		MultiLayer: 0
		MultiTake: 1
		Shading: Y
		Culling: "CullingOff"
		Vertices: -1,-1,-1,1,-1,-1,1,1,-1,-1,1,-1,-1,-1,1,1,-1,1
		,1,1,1,-1,1,1
		PolygonVertexIndex: 0,3,2,-2,4,5,6,-8,0,1,5,-5,2,3,7,-7,1,2,6,-6,0,4,7
		,-4
		GeometryVersion: 124
		LayerElementMaterial: 0 {
			Version: 101
			Name: ""
			MappingInformationType: "AllSame"
			ReferenceInformationType: "IndexToDirect"
			Materials: 0
		}
		Layer: 0 {
			Version: 100
			LayerElement:  {
				Type: "LayerElementMaterial"
				TypedIndex: 0
			}
		}
	}
	Material: "Material::Steel", "" {
		Version: 102
		ShadingModel: "lambert"
		MultiLayer: 0
		Properties60:  {
			Property: "ShadingModel", "KString", "", "Lambert"
			Property: "DiffuseColor", "ColorRGB", "",0.5,0.5,0.6
		}
	}
}

Connections:  {
	Connect: "OO", "Model::Box", "Model::Scene"
	Connect: "OO", "Material::Steel", "Model::Box"
}

Takes:  {
	Current: "Take 001"
	Take: "Take 001" {
		FileName: "Take_001.tak"
		LocalTime: 0,46186158000
		Model: "Model::Box" {
			Version: 1.1
			Channel: "Transform" {
				Channel: "T" {
					Channel: "X" {
						Default: 1
						KeyVer: 4005
						KeyCount: 2
						Key: 0,1,L,46186158000,5,L
					}
				}
			}
		}
	}
}
"""
open("v61.fbx", "w").write(v61)
