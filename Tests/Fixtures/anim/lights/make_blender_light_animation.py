"""Writes blender_light_animation.glb with Blender through bpy: a cube lit by a point light whose colour and power
are keyed over two seconds, exported with Blender's glTF exporter with lights and its KHR_animation_pointer export
on, the form a Blender user's lighting animation reaches assetc in. Run with bpy installed:
python make_blender_light_animation.py"""
from pathlib import Path

import bpy

HERE = Path(__file__).parent


def main():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = 24
    scene.frame_start, scene.frame_end = 1, 49
    bpy.ops.mesh.primitive_cube_add(size=1)
    bpy.ops.object.light_add(type="POINT", location=(2, 2, 2))
    light = bpy.context.object.data
    light.name = "Lamp"
    for frame, colour, watts in ((1, (1, 0.5, 0.25), 100), (25, (0.2, 1, 0.4), 400), (49, (0.3, 0.3, 1), 50)):
        light.color = colour
        light.energy = watts
        light.keyframe_insert("color", frame=frame)
        light.keyframe_insert("energy", frame=frame)
    bpy.ops.export_scene.gltf(filepath=str(HERE / "blender_light_animation.glb"), export_format="GLB", export_lights=True,
                              export_pointer_animation=True, export_animations=True, export_animation_mode="SCENE")


if __name__ == "__main__":
    main()
