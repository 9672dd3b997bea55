"""OBJ files as found in the wild (Tests/Fixtures/mesh/wild, one form each), judged by Blender's importer and
trimesh. A corner whose position points at nothing drops its face, as Blender does, and the face is named in a
warning. A corner whose texcoord or normal points at nothing (trimesh's `cubevt.obj` indexes texcoords it never
defines) keeps its face without that attribute, as trimesh does and as Blender does when the file defines none,
named in one counted warning. `\\` continues a statement on the next line, and a keyword counts only at the start
of a line. The forms other readers take in their stride (`1//`, `1/`) lose nothing and say nothing."""
import json

import pytest
import trimesh
from pygltflib import GLTF2

from blender_reference import blender
from conftest import FIXTURES, assetc_info, run_assetc

FOLDER = FIXTURES / "mesh" / "wild"
FILES = sorted(p.name for p in FOLDER.glob("*.obj"))
# The forms whose faces point at positions that are not there: Blender leaves those faces out.
POSITION_FORMS = {"no_position.obj", "position_past.obj"}
# The forms whose texcoords or normals point at nothing: the faces stay, that attribute goes.
ATTRIBUTE_FORMS = {"texcoord_past.obj", "normal_past.obj", "texcoords_undefined.obj", "keyword_in_group_name.obj"}

READ = '''
found = {}
for path in sys.argv[1:]:
    fresh()
    bpy.ops.wm.obj_import(filepath=path)
    meshes = [o.data for o in bpy.data.objects if o.type == "MESH"]
    found[path.rsplit("/", 1)[-1]] = {"faces": sum(len(m.polygons) for m in meshes),
                                       "uvs": any(len(m.uv_layers) > 0 for m in meshes)}
answer(found)
'''


@pytest.fixture(scope="module")
def blender_reads():
    return blender(READ, *(FOLDER / name for name in FILES))


def declared_faces(name):
    """The `f` statements written, a statement continued over lines counted once."""
    return sum(1 for line in (FOLDER / name).read_text().splitlines() if line.startswith("f "))


def trimesh_triangles(name):
    return len(trimesh.load(FOLDER / name, process=False, force="mesh").faces)


def counted(warnings, marker):
    """The faces the warnings containing marker count ("3 faces dropped: ...", "1 face read without ...")."""
    return sum(int(w.split(": ", 1)[1].split(" ")[0]) for w in warnings if marker in w)


@pytest.mark.parametrize("name", FILES)
def test_faces_as_the_reference_readers_read_them(name, blender_reads):
    info = assetc_info(FOLDER / name)
    if name in POSITION_FORMS:
        assert info["faces"] == blender_reads[name]["faces"], f"{name}: assetc {info['faces']} faces, Blender {blender_reads[name]['faces']}"
        lost = counted(info["warnings"], "dropped:")
        assert lost > 0, f"{name}: faces left out without a word: {info['warnings']}"
        assert info["faces"] + lost == declared_faces(name), f"{name}: {info['faces']} read + {lost} dropped != {declared_faces(name)} written"
        return
    assert info["faces"] == declared_faces(name), f"{name}: {info['faces']} faces of {declared_faces(name)} written"
    assert info["triangles"] == trimesh_triangles(name), f"{name}: assetc {info['triangles']} triangles, trimesh {trimesh_triangles(name)}"
    assert not any("dropped:" in w for w in info["warnings"]), info["warnings"]
    if name in ATTRIBUTE_FORMS:
        assert counted(info["warnings"], " read without ") > 0, f"{name}: an attribute left out without a word: {info['warnings']}"
    else:
        assert info["warnings"] == [], f"{name}: {info['warnings']}"
    if blender_reads[name]["faces"] == declared_faces(name):
        assert info["faces"] == blender_reads[name]["faces"]


@pytest.mark.parametrize("name", FILES)
def test_texture_coordinates_where_blender_finds_them(name, blender_reads, tmp_path):
    out = tmp_path / "out.glb"
    result = run_assetc("convert", FOLDER / name, out)
    assert result.returncode == 0, result.stderr
    gltf = GLTF2().load(str(out))
    has_uvs = any(p.attributes.TEXCOORD_0 is not None for m in gltf.meshes for p in m.primitives)
    assert has_uvs == blender_reads[name]["uvs"], f"{name}: assetc UVs {has_uvs}, Blender {blender_reads[name]['uvs']}"


def test_a_count_of_faces_without_texture_coordinates():
    info = assetc_info(FOLDER / "texcoords_undefined.obj")
    [warning] = [w for w in info["warnings"] if " read without " in w]
    assert warning.endswith("texcoords_undefined.obj:10: 3 faces read without texture coordinates: texcoord index 1 past the 0 defined (the first)")
