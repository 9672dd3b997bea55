"""Writes the FBX fixtures with Blender's own FBX exporter (bpy from PyPI, which
Scripts/setup-reference-tools installs): run with .build/reference/blender/bin/python
make_fbx_fixtures.py OUT_FOLDER. Each file is small; the hand-written ASCII fixtures beside this
script cover what Blender never writes (pivots, pre/post rotation, other rotation orders, geometric
transforms, every mapping and reference mode)."""
import math
import sys

import bpy

out = sys.argv[1]


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def material(name, colour):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    m.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = colour
    return m


def export(name, **options):
    bpy.ops.export_scene.fbx(filepath=f"{out}/{name}", add_leaf_bones=False, **options)


# Static props: a hierarchy with rotations and non-uniform scales, two materials on one mesh,
# two UV sets and vertex colours.
fresh()
bpy.ops.mesh.primitive_cube_add(location=(1, 0, 0))
body = bpy.context.object
body.name = "Body"
body.rotation_euler = (0.3, 0.2, 0.1)
body.scale = (1, 2, 0.5)
body.data.materials.append(material("Red", (0.8, 0.1, 0.1, 1)))
body.data.materials.append(material("Blue", (0.1, 0.1, 0.8, 1)))
for polygon in body.data.polygons:
    polygon.material_index = polygon.index % 2
body.data.uv_layers.new(name="UVMap")
second = body.data.uv_layers.new(name="Detail")
for loop in second.data:
    loop.uv = (loop.uv[0] * 2, loop.uv[1] * 2)
colours = body.data.color_attributes.new(name="Col", type="BYTE_COLOR", domain="CORNER")
for k, c in enumerate(colours.data):
    c.color = (k % 3 == 0, k % 3 == 1, k % 3 == 2, 1)
bpy.ops.mesh.primitive_cylinder_add(vertices=12, location=(0, 0, 2))
arm = bpy.context.object
arm.name = "Arm"
arm.rotation_euler = (0, math.radians(30), math.radians(45))
arm.scale = (0.5, 0.5, 1.5)
arm.parent = body
export("props.fbx")

# A skinned, animated character: a cylinder on two bones, the tip bone turning.
fresh()
bpy.ops.mesh.primitive_cylinder_add(vertices=16, depth=2, location=(0, 0, 1))
bpy.ops.object.mode_set(mode="EDIT")
bpy.ops.mesh.subdivide(number_cuts=6)
bpy.ops.object.mode_set(mode="OBJECT")
mesh = bpy.context.object
mesh.name = "Limb"
bpy.ops.object.armature_add(location=(0, 0, 0))
rig = bpy.context.object
rig.name = "Rig"
bpy.ops.object.mode_set(mode="EDIT")
rig.data.edit_bones[0].name = "Root"
tip = rig.data.edit_bones.new("Tip")
tip.head, tip.tail = (0, 0, 1), (0, 0, 2)
tip.parent = rig.data.edit_bones["Root"]
bpy.ops.object.mode_set(mode="OBJECT")
mesh.select_set(True)
rig.select_set(True)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.parent_set(type="ARMATURE_AUTO")
bpy.ops.object.mode_set(mode="POSE")
bone = rig.pose.bones["Tip"]
bone.rotation_mode = "XYZ"
for frame, angle in ((1, 0.0), (25, 1.0), (49, 0.0)):
    bone.rotation_euler = (angle, 0, 0)
    bone.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
bpy.context.scene.frame_start, bpy.context.scene.frame_end = 1, 49
export("skinned.fbx", bake_anim=True)

# Shape keys with an animated weight.
fresh()
bpy.ops.mesh.primitive_grid_add(x_subdivisions=8, y_subdivisions=8, size=2)
face = bpy.context.object
face.name = "Face"
face.shape_key_add(name="Basis")
smile = face.shape_key_add(name="Smile")
for point in smile.data:
    point.co.z += 0.3 * point.co.x * point.co.x
for frame, weight in ((1, 0.0), (21, 1.0)):
    smile.value = weight
    smile.keyframe_insert("value", frame=frame)
    # Blender's exporter writes shape-key curves only for objects it finds animated.
    face.location.x = 0.5 * weight
    face.keyframe_insert("location", frame=frame)
bpy.context.scene.frame_start, bpy.context.scene.frame_end = 1, 21
export("shapes.fbx", bake_anim=True)

# A Z-up scene in centimetres.
fresh()
bpy.context.scene.unit_settings.system = "METRIC"
bpy.context.scene.unit_settings.scale_length = 0.01
bpy.ops.mesh.primitive_monkey_add(location=(0, 0, 50))
bpy.context.object.name = "Head"
bpy.context.object.scale = (40, 40, 40)
export("zup_cm.fbx", axis_up="Z", axis_forward="Y", apply_scale_options="FBX_SCALE_UNITS")
# Three boxes, each with its own action over its own frames, exported with every action applied to
# every object: nine animation stacks, each a clip with its own span (as the 2010s SDK exporters
# write one stack per take).
fresh()
for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=0.5, location=(i * 2, 0, 0))
    box = bpy.context.object
    box.name = f"Box{i}"
    start, end = 1 + i * 10, 25 + i * 20
    box.location.z = 0
    box.keyframe_insert("location", frame=start)
    box.location.z = 1 + i
    box.keyframe_insert("location", frame=end)
    box.animation_data.action.name = f"Move{i}"
bpy.context.scene.frame_end = 65
export("stacks.fbx", bake_anim=True, bake_anim_use_all_actions=True, bake_anim_use_nla_strips=False)
print("made", out)
