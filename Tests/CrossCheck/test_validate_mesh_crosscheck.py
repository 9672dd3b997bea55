"""assetc's own mesh checks (`validate`: MeshTopologyChecker, MeshPrimvarChecker, MeshGeometryChecker)
against what usd-core reads from the same stages, on every USD fixture and sample asset:

- a mesh has a MeshTopologyChecker error exactly when usd-core's `UsdGeom.Mesh.ValidateTopology`
  rejects its arrays or a face has fewer than three vertices (which ValidateTopology lets through:
  such a face is no polygon);
- a primvar (or `normals`) has a MeshPrimvarChecker error exactly when the element count usd-core
  reads differs from what its interpolation needs over the mesh, or an index names no value;
- a mesh has a "not finite" MeshGeometryChecker error exactly when a point usd-core reads is NaN or
  infinite.
"""
import json
import subprocess
import sys

import pytest

from conftest import run_assetc
from test_validate_crosscheck import SOURCES, IDS

REFERENCE = """
import json, math, sys
from pxr import Usd, UsdGeom

def expected(mesh, interpolation, counts, points):
    return {"constant": 1, "uniform": len(counts), "vertex": points, "varying": points,
            "faceVarying": sum(counts)}.get(interpolation)

out = {"topology": [], "primvars": [], "finite": []}
stage = Usd.Stage.Open(sys.argv[1])
for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
    if prim.GetTypeName() != "Mesh":
        continue
    mesh = UsdGeom.Mesh(prim)
    path = str(prim.GetPath())
    points = mesh.GetPointsAttr().Get() or []
    counts = mesh.GetFaceVertexCountsAttr().Get() or []
    indices = mesh.GetFaceVertexIndicesAttr().Get() or []
    if len(points) == 0 or len(counts) == 0:
        continue
    if any(not math.isfinite(c) for p in points for c in p):
        out["finite"].append(path)
    valid, _ = UsdGeom.Mesh.ValidateTopology(indices, counts, len(points))
    if not valid or any(c < 3 for c in counts):
        out["topology"].append(path)
        continue
    arrays = [(p.GetName(), p.GetInterpolation(), p.GetElementSize(), p.Get(), p.GetIndices() if p.IsIndexed() else None)
              for p in UsdGeom.PrimvarsAPI(prim).GetPrimvars() if p.HasAuthoredValue() and p.GetTypeName().isArray]
    normals = mesh.GetNormalsAttr()
    if normals.HasAuthoredValue() and not UsdGeom.PrimvarsAPI(prim).HasPrimvar("normals"):
        arrays.append(("normals", mesh.GetNormalsInterpolation(), 1, normals.Get(), None))
    for name, interpolation, size, values, index in arrays:
        need = expected(mesh, interpolation, counts, len(points))
        if need is None or values is None:
            continue
        if index is not None:
            bad = len(index) != need * size or any(i < 0 or i >= len(values) for i in index)
        else:
            bad = interpolation != "constant" and len(values) != need * size
        if bad:
            out["primvars"].append(path + "." + name)
print(json.dumps(out))
"""


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_mesh_checks_agree_with_usd_core(source):
    result = run_assetc("validate", "--json", "--budget", "none", str(source))
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)["files"][0]["findings"]
    ours = {
        "topology": sorted({f["location"]["elementPath"] for f in findings if f["rule"] == "MeshTopologyChecker"}),
        "primvars": sorted({f["location"]["elementPath"] for f in findings if f["rule"] == "MeshPrimvarChecker"}),
        "finite": sorted({f["location"]["elementPath"] for f in findings
                          if f["rule"] == "MeshGeometryChecker" and "not finite" in f["message"]}),
    }
    reference = subprocess.run([sys.executable, "-c", REFERENCE, str(source)], capture_output=True, text=True, timeout=300)
    assert reference.returncode == 0, reference.stderr
    theirs = {key: sorted(set(value)) for key, value in json.loads(reference.stdout.strip().splitlines()[-1]).items()}
    assert ours == theirs


def test_the_mesh_fixtures_break_what_they_say(tmp_path):
    from conftest import FIXTURES
    rules = {}
    for name in ("mesh_indices", "mesh_counts", "mesh_primvars", "mesh_geometry", "mesh_subsets", "mesh_subset_families", "texture_st_constant"):
        result = run_assetc("validate", "--json", str(FIXTURES / "validate" / (name + ".usda")))
        rules[name] = {(f["rule"], f["severity"]) for f in json.loads(result.stdout)["files"][0]["findings"]}
    assert rules["mesh_indices"] == {("MeshTopologyChecker", "error")}
    assert rules["mesh_counts"] == {("MeshTopologyChecker", "error")}
    assert rules["mesh_primvars"] == {("MeshPrimvarChecker", "error")}
    assert rules["mesh_geometry"] == {("MeshGeometryChecker", "error"), ("MeshGeometryChecker", "warning")}
    assert rules["mesh_subsets"] == {("GeomSubsetChecker", "error")}
    assert rules["mesh_subset_families"] >= {("GeomSubsetChecker", "error"), ("GeomSubsetChecker", "warning")}
    assert rules["texture_st_constant"] == {("TextureCoordinateChecker", "warning")}


def test_budgets_warn_and_strict_fails_on_them(tmp_path):
    from conftest import FIXTURES
    clean = FIXTURES / "validate" / "clean.usda"
    assert run_assetc("validate", str(clean)).returncode == 0
    result = run_assetc("validate", "--json", "--budget", "triangles=0,texture=2,size=100", str(clean))
    assert result.returncode == 0, result.stderr
    messages = sorted(f["message"] for f in json.loads(result.stdout)["files"][0]["findings"] if f["rule"] == "BudgetChecker")
    assert len(messages) == 4, messages
    assert any("draws 1 triangles" in m for m in messages)
    assert sum("is 4 x 4" in m for m in messages) == 2
    assert run_assetc("validate", "--strict", "--budget", "triangles=0", str(clean)).returncode == 1
    bad = run_assetc("validate", "--budget", "polygons=5", str(clean))
    assert bad.returncode != 0 and "unknown budget 'polygons'" in bad.stderr
