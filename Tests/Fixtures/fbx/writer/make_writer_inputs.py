"""Inputs for the FBX writer's tests, made by the tools users use.

Run with Blender's Python (bpy 5.0) for the glb files: `.build/reference/blender/bin/python make_writer_inputs.py`;
it then runs usd-core (`python3`) for the Z-up centimetre USD.
- props.glb: two textured meshes with their own materials and a shared untextured one (Blender's glTF exporter).
- rig.glb: an armature of three bones skinning a ring-stacked column, two actions exported as two clips.
- morph.glb: a grid with two shape keys and a shape-key-only action.
- zup_cm.usda: a Z-up, centimetre stage with two meshes and a material (usd-core).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def blender():
    import bpy

    def reset():
        bpy.ops.wm.read_factory_settings(use_empty=True)

    def material(name, color, image=None):
        m = bpy.data.materials.new(name)
        m.use_nodes = True
        bsdf = m.node_tree.nodes["Principled BSDF"]
        bsdf.inputs["Base Color"].default_value = (*color, 1)
        bsdf.inputs["Roughness"].default_value = 0.4
        if image:
            tex = m.node_tree.nodes.new("ShaderNodeTexImage")
            tex.image = image
            m.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        return m

    def checker(name, size=32):
        img = bpy.data.images.new(name, size, size)
        px = []
        for y in range(size):
            for x in range(size):
                on = (x // 8 + y // 8) % 2
                px += [0.9 if on else 0.1, 0.3, 0.1 if on else 0.8, 1.0]
        img.pixels = px
        img.filepath_raw = os.path.join(HERE, name + ".png")
        img.file_format = "PNG"
        img.save()
        img.pack()
        os.remove(os.path.join(HERE, name + ".png"))
        return img

    # props
    reset()
    bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 0.5))
    bpy.context.object.name = "Crate"
    bpy.context.object.data.materials.append(material("CrateWood", (0.8, 0.5, 0.2), checker("crate_checker")))
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3, location=(1.5, 0, 0.3), segments=16, ring_count=8)
    bpy.context.object.name = "Ball"
    bpy.context.object.data.materials.append(material("BallPaint", (0.1, 0.3, 0.9), checker("ball_checker")))
    bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=1.2, location=(-1.2, 0.5, 0.6), vertices=12)
    bpy.context.object.name = "Post"
    bpy.context.object.data.materials.append(material("PostMetal", (0.6, 0.6, 0.65)))
    bpy.ops.export_scene.gltf(filepath=os.path.join(HERE, "props.glb"), export_format="GLB")

    # rig: three bones up a column of rings, two actions
    reset()
    bpy.ops.mesh.primitive_cylinder_add(radius=0.25, depth=3, location=(0, 0, 1.5), vertices=12)
    column = bpy.context.object
    column.name = "Column"
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.select_all(action="SELECT")
    bpy.ops.mesh.subdivide(number_cuts=3)
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.ops.object.armature_add(location=(0, 0, 0))
    rig = bpy.context.object
    rig.name = "Rig"
    bpy.ops.object.mode_set(mode="EDIT")
    bones = rig.data.edit_bones
    root = bones[0]
    root.name, root.head, root.tail = "Base", (0, 0, 0), (0, 0, 1)
    mid = bones.new("Middle"); mid.head, mid.tail, mid.parent = (0, 0, 1), (0, 0, 2), root
    top = bones.new("Top"); top.head, top.tail, top.parent = (0, 0, 2), (0, 0, 3), mid
    bpy.ops.object.mode_set(mode="OBJECT")
    column.select_set(True)
    rig.select_set(True)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    column.data.materials.append(material("ColumnStone", (0.5, 0.5, 0.45)))
    rig.animation_data_create()
    for name, angle, end in (("Sway", 0.5, 30), ("Twist", 0.9, 50)):
        action = bpy.data.actions.new(name)
        rig.animation_data.action = action
        for frame, sign in ((1, 0), (end // 2, 1), (end, 0)):
            bpy.context.scene.frame_set(frame)
            for bone in ("Middle", "Top"):
                pb = rig.pose.bones[bone]
                pb.rotation_mode = "XYZ"
                pb.rotation_euler = (angle * sign, 0, 0) if name == "Sway" else (0, 0, angle * sign)
                pb.keyframe_insert("rotation_euler", frame=frame)
        track = rig.animation_data.nla_tracks.new()
        track.strips.new(name, 1, action)
    rig.animation_data.action = None
    bpy.ops.export_scene.gltf(filepath=os.path.join(HERE, "rig.glb"), export_format="GLB", export_animation_mode="ACTIONS")

    # morph: shape keys and a shape-key-only action
    reset()
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=6, y_subdivisions=6, size=2)
    grid = bpy.context.object
    grid.name = "Face"
    grid.shape_key_add(name="Basis")
    for name, lift in (("Smile", 0.3), ("Frown", -0.2)):
        key = grid.shape_key_add(name=name)
        for k, v in enumerate(key.data):
            if v.co.x > 0.2:
                v.co.z += lift
    grid.data.materials.append(material("Skin", (0.9, 0.7, 0.6)))
    keys = grid.data.shape_keys
    keys.key_blocks["Smile"].value = 0.25
    for frame, value in ((1, 0.0), (20, 1.0), (40, 0.0)):
        keys.key_blocks["Smile"].value = value
        keys.key_blocks["Smile"].keyframe_insert("value", frame=frame)
    bpy.ops.export_scene.gltf(filepath=os.path.join(HERE, "morph.glb"), export_format="GLB")


def usd():
    from pxr import Usd, UsdGeom, UsdShade, Sdf, Gf
    stage = Usd.Stage.CreateNew(os.path.join(HERE, "zup_cm.usda"))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 0.01)
    root = UsdGeom.Xform.Define(stage, "/Set")
    stage.SetDefaultPrim(root.GetPrim())
    mat = UsdShade.Material.Define(stage, "/Set/Looks/Red")
    shader = UsdShade.Shader.Define(stage, "/Set/Looks/Red/Surface")
    shader.CreateIdAttr("UsdPreviewSurface")
    shader.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.8, 0.1, 0.1))
    mat.CreateSurfaceOutput().ConnectToSource(shader.ConnectableAPI(), "surface")
    for name, offset, height in (("Table", 0, 80), ("Stool", 120, 45)):
        mesh = UsdGeom.Mesh.Define(stage, f"/Set/{name}")
        w = 30
        pts = [(x + offset, y, z) for z in (0, height) for y in (-w, w) for x in (-w, w)]
        mesh.CreatePointsAttr(pts)
        mesh.CreateFaceVertexCountsAttr([4] * 6)
        mesh.CreateFaceVertexIndicesAttr([0, 1, 3, 2, 4, 6, 7, 5, 0, 4, 5, 1, 2, 3, 7, 6, 0, 2, 6, 4, 1, 5, 7, 3])
        mesh.CreateExtentAttr([(offset - w, -w, 0), (offset + w, w, height)])
        UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(mat)
    stage.GetRootLayer().Save()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "usd":
        usd()
    else:
        blender()
        subprocess.run([sys.executable if "usd" in sys.argv else "python3", __file__, "usd"], check=True)
