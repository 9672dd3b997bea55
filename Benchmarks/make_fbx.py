"""Writes the benchmark's skinned binary FBX with Blender's own exporter (run under
.build/reference/blender/bin/python): a UV sphere of about 1,000,000 triangles with UVs and
normals, skinned to a two-bone armature (the lower half to one bone, the upper to the other, a band
between shared). Usage: make_fbx.py OUT.fbx"""
import sys

import bpy
import numpy as np

out = sys.argv[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.mesh.primitive_uv_sphere_add(segments=708, ring_count=708, radius=1)
sphere = bpy.context.object
sphere.name = "Sculpt"
bpy.ops.object.armature_add(location=(0, 0, -1))
rig = bpy.context.object
bpy.ops.object.mode_set(mode="EDIT")
rig.data.edit_bones[0].name = "Lower"
rig.data.edit_bones[0].tail = (0, 0, 0)
upper = rig.data.edit_bones.new("Upper")
upper.head, upper.tail = (0, 0, 0), (0, 0, 1)
upper.parent = rig.data.edit_bones["Lower"]
bpy.ops.object.mode_set(mode="OBJECT")
z = np.empty(len(sphere.data.vertices) * 3)
sphere.data.vertices.foreach_get("co", z)
z = z[2::3]
share = np.clip((z + 0.2) / 0.4, 0, 1)  # 0 below -0.2, 1 above 0.2
lower, top = sphere.vertex_groups.new(name="Lower"), sphere.vertex_groups.new(name="Upper")
for weight in np.unique(np.round(share, 2)):
    ids = np.nonzero(np.round(share, 2) == weight)[0].tolist()
    if weight < 1:
        lower.add(ids, float(1 - weight), "REPLACE")
    if weight > 0:
        top.add(ids, float(weight), "REPLACE")
modifier = sphere.modifiers.new("Armature", "ARMATURE")
modifier.object = rig
sphere.parent = rig
bpy.ops.export_scene.fbx(filepath=out, add_leaf_bones=False, bake_anim=False)
print("triangles", sum(len(p.vertices) - 2 for p in sphere.data.polygons))
