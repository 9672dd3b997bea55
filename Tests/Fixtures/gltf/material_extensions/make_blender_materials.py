"""Writes one glb per material extension with Blender's own glTF exporter (run under the bpy that
Scripts/setup-reference-tools installs: .build/reference/blender/bin/python make_blender_materials.py),
so each file holds what Blender puts in it, not what assetc expects: a UV sphere with one Principled BSDF
whose inputs are set for the extension the file is named after, and variants.glb with two variants that
swap the materials of two spheres (KHR_materials_variants). The outputs are committed."""
import os

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def sphere(name, location=(0, 0, 0)):
    bpy.ops.mesh.primitive_uv_sphere_add(segments=16, ring_count=8, radius=0.5, location=location)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def principled(name, **inputs):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    for key, value in inputs.items():
        bsdf.inputs[key].default_value = value
    return material


def export(name, **options):
    bpy.ops.export_scene.gltf(filepath=os.path.join(HERE, name), export_format="GLB", export_yup=True, **options)


CASES = {
    "clearcoat.glb": {"Base Color": (0.8, 0.1, 0.1, 1), "Coat Weight": 0.8, "Coat Roughness": 0.2},
    "transmission.glb": {"Base Color": (0.9, 0.9, 1.0, 1), "Transmission Weight": 0.75, "Roughness": 0.05},
    "ior.glb": {"Base Color": (0.2, 0.6, 0.9, 1), "IOR": 1.33, "Transmission Weight": 0.5},
    "sheen.glb": {"Base Color": (0.3, 0.1, 0.5, 1), "Sheen Weight": 1.0, "Sheen Tint": (1.0, 0.5, 0.5, 1), "Sheen Roughness": 0.4},
    "specular.glb": {"Base Color": (0.5, 0.5, 0.5, 1), "Specular IOR Level": 0.9, "Specular Tint": (1.0, 0.8, 0.2, 1)},
    "emissive_strength.glb": {"Base Color": (0, 0, 0, 1), "Emission Color": (1.0, 0.5, 0.1, 1), "Emission Strength": 6.0},
    "metallic_rough.glb": {"Base Color": (0.9, 0.7, 0.2, 1), "Metallic": 1.0, "Roughness": 0.3},
}


def single(name, inputs):
    fresh()
    obj = sphere("Ball")
    obj.data.materials.append(principled(name.split(".")[0], **inputs))
    export(name)


def variants():
    fresh()
    bpy.context.preferences.addons["io_scene_gltf2"].preferences.KHR_materials_variants_ui = True
    red = principled("Red", **{"Base Color": (0.9, 0.05, 0.05, 1)})
    blue = principled("Blue", **{"Base Color": (0.05, 0.1, 0.9, 1)})
    gold = principled("Gold", **{"Base Color": (0.9, 0.7, 0.2, 1), "Metallic": 1.0, "Roughness": 0.25})
    scene = bpy.context.scene
    for label in ("Crimson", "Navy"):
        scene.gltf2_KHR_materials_variants_variants.add().name = label
    left, right = sphere("Left", (-0.6, 0, 0)), sphere("Right", (0.6, 0, 0))
    left.data.materials.append(red)
    right.data.materials.append(gold)
    # Crimson: red on the left, gold on the right (the defaults); Navy: blue on the left, red on the right.
    for obj, crimson, navy in ((left, red, blue), (right, gold, red)):
        for material, variant in ((crimson, 0), (navy, 1)):
            entry = obj.data.gltf2_variant_mesh_data.add()
            entry.material = material
            entry.material_slot_index = 0
            entry.variants.add().variant.variant_idx = variant
    export("variants.glb")


if __name__ == "__main__":
    for file_name, inputs in CASES.items():
        single(file_name, inputs)
    variants()
