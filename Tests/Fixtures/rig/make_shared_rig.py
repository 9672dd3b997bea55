"""Writes shared_rig.glb beside this script with Blender (run under the bpy of
Scripts/setup-reference-tools: .build/reference/blender/bin/python make_shared_rig.py): three meshes
(a cube, a cylinder, a sphere) on one armature of three bones with automatic weights and a 1 s bend,
exported as glTF does it: one skin that all three meshes use. Written to Collada and read back, the
three must share one skeleton, as BrainStem's 59 meshes share one."""
import math
import os

import bpy

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.object.armature_add(location=(0, 0, 0))
rig = bpy.context.object
bpy.ops.object.mode_set(mode="EDIT")
bones = rig.data.edit_bones
bones[0].name = "Root"
bones[0].head, bones[0].tail = (0, 0, 0), (0, 0, 1)
middle = bones.new("Middle")
middle.head, middle.tail, middle.parent = (0, 0, 1), (0, 0, 2), bones[0]
tip = bones.new("Tip")
tip.head, tip.tail, tip.parent = (0, 0, 2), (0, 0, 3), middle
bpy.ops.object.mode_set(mode="OBJECT")

meshes = []
bpy.ops.mesh.primitive_cube_add(size=0.8, location=(0, 0, 0.5))
meshes.append(bpy.context.object)
bpy.ops.mesh.primitive_cylinder_add(radius=0.3, depth=1, location=(0, 0, 1.5))
meshes.append(bpy.context.object)
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.4, location=(0, 0, 2.5), segments=12, ring_count=6)
meshes.append(bpy.context.object)
for mesh in meshes:
    bpy.ops.object.select_all(action="DESELECT")
    mesh.select_set(True)
    rig.select_set(True)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")

bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="POSE")
for frame, angle in ((1, 0), (25, 40)):
    for name in ("Middle", "Tip"):
        bone = rig.pose.bones[name]
        bone.rotation_mode = "XYZ"
        bone.rotation_euler = (math.radians(angle), 0, 0)
        bone.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
bpy.context.scene.frame_end = 25

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shared_rig.glb")
bpy.ops.export_scene.gltf(filepath=out, export_format="GLB", export_animations=True)
