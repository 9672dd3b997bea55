"""OBJ files as found in the wild (Tests/Fixtures/mesh/wild, one malformed corner kind each): assetc reads
the faces Blender's importer reads, no more and no fewer, and names every face it drops in a warning; the
forms other readers take in their stride (`1//`, `1/`) lose nothing and say nothing."""
from pathlib import Path

import pytest
import trimesh

from blender_reference import blender
from conftest import FIXTURES, assetc_info

FOLDER = FIXTURES / "mesh" / "wild"
FILES = sorted(p.name for p in FOLDER.glob("*.obj"))

COUNT_FACES = '''
counts = {}
for path in sys.argv[1:]:
    fresh()
    bpy.ops.wm.obj_import(filepath=path)
    counts[path.rsplit("/", 1)[-1]] = sum(len(o.data.polygons) for o in bpy.data.objects if o.type == "MESH")
answer(counts)
'''


@pytest.fixture(scope="module")
def blender_faces():
    return blender(COUNT_FACES, *(FOLDER / name for name in FILES))


@pytest.mark.parametrize("name", FILES)
def test_the_faces_blender_reads(name, blender_faces):
    info = assetc_info(FOLDER / name)
    assert info["faces"] == blender_faces[name], f"{name}: assetc {info['faces']} faces, Blender {blender_faces[name]}"
    dropped = [w for w in info["warnings"] if "dropped:" in w]
    if name == "empty_slots.obj":
        assert info["warnings"] == []
        assert info["faces"] == len(trimesh.load(FOLDER / name, process=False, force="mesh").faces)
    else:
        assert dropped, f"{name}: faces left out without a word: {info['warnings']}"
        lost = sum(int(w.split(": ", 1)[1].split(" ")[0]) for w in dropped)
        declared = sum(1 for line in (FOLDER / name).read_text().splitlines() if line.startswith("f "))
        assert info["faces"] + lost == declared, f"{name}: {info['faces']} read + {lost} dropped != {declared} written"
