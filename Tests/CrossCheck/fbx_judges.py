"""Three independent readers' view of an FBX file, as plain figures the writer's tests compare: ufbx (the reader
Godot 4 uses), Blender's importer (through bpy) and assimp (`assimp info`). Each answers the same questions:
triangles, bounds in metres in a Y-up frame, materials and their base colours, textures with pixels, bones,
weights, the bind pose, blend-shape channels and animation stacks."""
import json
import os
import re
import subprocess
import sys

from blender_reference import blender

UFBX_SCRIPT = r'''
import io, json, os, sys
import ufbx
from PIL import Image
keep = []
s = ufbx.load_file(sys.argv[1], target_axes=ufbx.axes_right_handed_y_up, target_unit_meters=1.0)
keep.append(s)
nodes = list(s.nodes); keep += nodes
lo, hi = [1e30] * 3, [-1e30] * 3
tris = 0
smoothing = []
for node in nodes:
    mesh = node.mesh
    if mesh is None:
        continue
    keep.append(mesh)
    tris += mesh.num_triangles
    smoothing.append(bool((mesh.edge_smoothing is not None and len(mesh.edge_smoothing)) or (mesh.face_smoothing is not None and len(mesh.face_smoothing))))
    m = node.geometry_to_world
    keep.append(m)
    for p in mesh.vertex_position.values:
        w = [m.c0[k] * p.x + m.c1[k] * p.y + m.c2[k] * p.z + m.c3[k] for k in range(3)]
        for k, v in enumerate(w):
            lo[k] = min(lo[k], v); hi[k] = max(hi[k], v)
materials = list(s.materials); keep += materials
colors = []
for mat in materials:
    c = mat.fbx.diffuse_color.value_vec4
    f = mat.fbx.diffuse_factor.value_vec4[0] if mat.fbx.diffuse_factor.has_value else 1.0
    colors.append([c.x * f, c.y * f, c.z * f])
textures = list(s.textures); keep += textures
with_pixels = 0
for t in textures:
    # Pixels decoded from the embedded content, else from the file the relative name finds beside the FBX.
    content = bytes(t.content) if t.content is not None and len(t.content) > 0 else None
    beside = os.path.join(os.path.dirname(sys.argv[1]), t.relative_filename or "")
    if content is None and t.relative_filename and os.path.isfile(beside):
        content = open(beside, "rb").read()
    if content:
        try:
            with_pixels += Image.open(io.BytesIO(content)).size[0] > 0
        except Exception:
            pass
bones = set()
clusters = list(s.skin_clusters); keep += clusters
for c in clusters:
    if c.bone_node is not None:
        bones.add(c.bone_node.element_id)
unweighted, bad_sums = 0, 0
skins = list(s.skin_deformers); keep += skins
for skin in skins:
    vertices = list(skin.vertices); weights = list(skin.weights); keep += vertices + weights
    for v in vertices:
        total = sum(weights[v.weight_begin + k].weight for k in range(v.num_weights))
        if v.num_weights == 0:
            unweighted += 1
        elif abs(total - 1) > 0.05:
            bad_sums += 1
posed = set()
poses = list(s.poses); keep += poses
for pose in poses:
    bone_poses = list(pose.bone_poses); keep += bone_poses
    for bp in bone_poses:
        if bp.bone_node is not None:
            posed.add(bp.bone_node.element_id)
channels = list(s.blend_channels); keep += channels
stacks = list(s.anim_stacks); keep += stacks
print(json.dumps({"triangles": tris, "min": lo, "max": hi, "materials": len(materials), "colors": colors, "textures": len(textures),
                  "texturesWithPixels": with_pixels, "bones": len(bones), "unweighted": unweighted, "badSums": bad_sums,
                  "bindPoseHoldsBones": bones <= posed, "blendChannels": sorted(c.name for c in channels),
                  "stacks": {st.name: st.time_end - st.time_begin for st in stacks}, "smoothing": all(smoothing) and bool(smoothing)}))
sys.stdout.flush()
os._exit(0)
'''

BLENDER_SCRIPT = r'''
import os
fresh()
bpy.ops.import_scene.fbx(filepath=sys.argv[1])
for ob in bpy.context.scene.objects:
    ob.animation_data_clear()
    if ob.type == "ARMATURE":
        ob.data.pose_position = "REST"
    if ob.type == "MESH" and ob.data.shape_keys:
        for kb in ob.data.shape_keys.key_blocks:
            kb.value = 0
        ob.data.shape_keys.animation_data_clear()
bpy.context.view_layer.update()
dg = bpy.context.evaluated_depsgraph_get()
tris = 0; lo = [1e30] * 3; hi = [-1e30] * 3
for ob in bpy.context.scene.objects:
    if ob.type != "MESH":
        continue
    ev = ob.evaluated_get(dg); me = ev.to_mesh()
    me.calc_loop_triangles(); tris += len(me.loop_triangles)
    for v in me.vertices:
        w = ev.matrix_world @ v.co
        y_up = (w.x, w.z, -w.y)  # Blender is Z up; the figures are compared in a Y-up frame
        for k in range(3):
            lo[k] = min(lo[k], y_up[k]); hi[k] = max(hi[k], y_up[k])
    ev.to_mesh_clear()
colors = []
for m in bpy.data.materials:
    bsdf = m.node_tree.nodes.get("Principled BSDF") if m.use_nodes and m.node_tree else None
    if bsdf:
        colors.append(list(bsdf.inputs["Base Color"].default_value)[:3])
stacks = sorted({"|".join(a.name.split("|")[1:-1]) for a in bpy.data.actions if a.name.count("|") >= 2})
answer({"triangles": tris, "min": lo, "max": hi, "materials": len(bpy.data.materials), "colors": colors,
        "texturesWithPixels": sum(1 for i in bpy.data.images if i.size[0] > 0 and i.size[1] > 0),
        "bones": sum(len(o.data.bones) for o in bpy.context.scene.objects if o.type == "ARMATURE"),
        "blendChannels": sorted(kb.name for o in bpy.context.scene.objects if o.type == "MESH" and o.data.shape_keys
                                for kb in o.data.shape_keys.key_blocks[1:]),
        "stacks": stacks})
'''


def ufbx_view(path):
    result = subprocess.run([sys.executable, "-c", UFBX_SCRIPT, str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip(), f"ufbx failed on {path}: {result.stderr[-2000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def blender_view(path):
    return blender(BLENDER_SCRIPT, path)


def assimp_view(path):
    result = subprocess.run(["assimp", "info", str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"assimp failed on {path}: {result.stdout[-1000:]}{result.stderr[-1000:]}"

    def field(name):
        found = re.search(rf"^{re.escape(name)}:\s+(\d+)", result.stdout, re.M)
        return int(found.group(1)) if found else None
    return {"triangles": field("Faces"), "materials": field("Materials"), "bones": field("Bones"),
            "stacks": field("Animations"), "texturesEmbedded": field("Textures (embed.)")}
