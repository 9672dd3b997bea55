#!/usr/bin/env python3
"""Writes the PBR fixtures beside this script, the scenes the fidelity test renders with assetc, Cycles
and f3d: sphere_grid.glb (a dielectric and a metal row, roughness 0 to 1), normal_plane.glb (a
tangent-space normal map of bumps, one half with mirrored UVs), orm_cube.glb (occlusion, roughness
and metal stripes in one texture), emissive.glb (an emissive texture times a factor), alpha_modes.glb
(OPAQUE with alpha in its factor and vertex colours, MASK, BLEND over a backdrop), texture_transform.glb
(KHR_texture_transform on a checker), spec_gloss.glb (KHR_materials_pbrSpecularGlossiness),
clearcoat.glb (KHR_materials_clearcoat over a red base), and zup_sphere.usda (a Z-up UsdPreviewSurface
scene). sky_64.hdr, the environment fuzzer's seed, is `Benchmarks/make_hdr_environment.py sky_64.hdr 64`. numpy and Pillow, and the GLB layout written out here."""
import json
import math
import os
import struct

import io

import numpy as np
from PIL import Image


def sphere(segments=48, rings=24):
    points, normals, uvs = [], [], []
    for r in range(rings + 1):
        theta = math.pi * r / rings
        for s in range(segments + 1):
            phi = 2 * math.pi * s / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi))
            points.append(n)
            normals.append(n)
            uvs.append((s / segments, r / rings))
    indices = []
    row = segments + 1
    for r in range(rings):
        for s in range(segments):
            a, b = r * row + s, (r + 1) * row + s
            indices += [a, b, b + 1, a, b + 1, a + 1]
    return np.array(points, np.float32), np.array(normals, np.float32), np.array(uvs, np.float32), np.array(indices, np.uint16)


def glb(path, nodes, meshes, materials, blobs, images=(), extensions=(), samplers=None):
    """blobs: list of (bytes, target, componentType, type, count, min, max) appended as accessors;
    images: PNG bytes, each a texture of the same index (sampler 0 when samplers are given)."""
    binary = b""
    views, accessors = [], []
    for data, target, ctype, atype, count, lo, hi in blobs:
        while len(binary) % 4:
            binary += b"\0"
        view = {"buffer": 0, "byteOffset": len(binary), "byteLength": len(data), "target": target}
        views.append(view)
        accessor = {"bufferView": len(views) - 1, "componentType": ctype, "type": atype, "count": count}
        if lo is not None:
            accessor["min"], accessor["max"] = lo, hi
        accessors.append(accessor)
        binary += data
    image_entries = []
    for png in images:
        while len(binary) % 4:
            binary += b"\0"
        views.append({"buffer": 0, "byteOffset": len(binary), "byteLength": len(png)})
        image_entries.append({"bufferView": len(views) - 1, "mimeType": "image/png"})
        binary += png
    while len(binary) % 4:
        binary += b"\0"
    document = {"asset": {"version": "2.0", "generator": "assetc make_pbr_fixtures.py"}, "scene": 0,
                "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes, "meshes": meshes, "materials": materials,
                "buffers": [{"byteLength": len(binary)}], "bufferViews": views, "accessors": accessors}
    if image_entries:
        document["images"] = image_entries
        document["textures"] = [dict({"source": k}, **({"sampler": 0} if samplers else {})) for k in range(len(image_entries))]
        if samplers:
            document["samplers"] = samplers
    if extensions:
        document["extensionsUsed"] = list(extensions)
    text = json.dumps(document, separators=(",", ":")).encode()
    while len(text) % 4:
        text += b" "
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


def sphere_grid(path):
    points, normals, uvs, indices = sphere()
    blobs = [(points.tobytes(), 34962, 5126, "VEC3", len(points), points.min(0).tolist(), points.max(0).tolist()),
             (normals.tobytes(), 34962, 5126, "VEC3", len(normals), None, None),
             (uvs.tobytes(), 34962, 5126, "VEC2", len(uvs), None, None),
             (indices.tobytes(), 34963, 5123, "SCALAR", len(indices), None, None)]
    materials, meshes, nodes = [], [], []
    for row, metallic in enumerate([0.0, 1.0]):
        for column in range(5):
            roughness = column / 4
            materials.append({"name": f"m{metallic:g}_r{roughness:g}",
                              "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.1, 1] if metallic == 0 else [0.95, 0.8, 0.5, 1],
                                                       "metallicFactor": metallic, "roughnessFactor": roughness}})
            meshes.append({"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3,
                                           "material": len(materials) - 1}]})
            nodes.append({"mesh": len(meshes) - 1, "translation": [column * 2.2 - 4.4, 1.1 - row * 2.2, 0]})
    glb(path, nodes, meshes, materials, blobs)


def png(pixels):
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(pixels, np.uint8)).save(buffer, format="PNG")
    return buffer.getvalue()


def mesh_blobs(points, normals, uvs, indices, colors=None, tangents=None):
    points, normals, uvs = (np.asarray(a, np.float32) for a in (points, normals, uvs))
    blobs = [(points.tobytes(), 34962, 5126, "VEC3", len(points), points.min(0).tolist(), points.max(0).tolist()),
             (normals.tobytes(), 34962, 5126, "VEC3", len(normals), None, None),
             (uvs.tobytes(), 34962, 5126, "VEC2", len(uvs), None, None),
             (np.asarray(indices, np.uint16).tobytes(), 34963, 5123, "SCALAR", len(indices), None, None)]
    attributes = {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}
    if colors is not None:
        colors = np.asarray(colors, np.float32)
        blobs.append((colors.tobytes(), 34962, 5126, "VEC4", len(colors), None, None))
        attributes["COLOR_0"] = len(blobs) - 1
    return blobs, attributes


def grid_plane(n, size, z=0.0, uv_scale=1.0):
    """An n x n grid in the XY plane facing +Z, uv (0,0) at the top left as glTF has it."""
    xs = np.linspace(-size / 2, size / 2, n + 1)
    points, uvs = [], []
    for j in range(n + 1):
        for i in range(n + 1):
            points.append((xs[i], xs[n - j], z))
            uvs.append((i / n * uv_scale, j / n * uv_scale))
    indices = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            indices += [a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2]
    return np.array(points), np.tile([0, 0, 1.0], (len(points), 1)), np.array(uvs), indices


def normal_plane(path):
    # Domes: a height field of bumps, its normals in tangent space (+x along u, +y up the image).
    size = 256
    y, x = np.mgrid[0:size, 0:size] / size * 4 * math.pi
    hx, hy = np.cos(x) * np.sin(y), np.sin(x) * np.cos(y)  # d/dx, d/dy of sin(x)sin(y)
    n = np.stack([-hx * 0.6, hy * 0.6, np.ones_like(hx)], -1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    texture = png((n * 0.5 + 0.5) * 255)
    points, normals, uvs, indices = grid_plane(8, 2.0)
    uvs = uvs.copy()
    left = points[:, 0] < 0
    uvs[left, 0] = -uvs[left, 0] + 0.5 * 2 * 0.5  # the left half mirrored about the middle
    blobs, attributes = mesh_blobs(points, normals, uvs, indices)
    materials = [{"name": "Bumps", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1], "metallicFactor": 0, "roughnessFactor": 0.35},
                  "normalTexture": {"index": 0}}]
    glb(path, [{"mesh": 0, "rotation": [-0.3826834, 0, 0, 0.9238795]}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}],
        materials, blobs, images=[texture])


def cube(size=1.0):
    faces = [((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)), ((0, 1, 0), (1, 0, 0), (0, 0, -1)),
             ((0, -1, 0), (1, 0, 0), (0, 0, 1)), ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
    points, normals, uvs, indices = [], [], [], []
    h = size / 2
    for n, u, v in faces:
        n, u, v = map(np.array, (n, u, v))
        base = len(points)
        for du, dv in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
            points.append(n * h + u * h * du + v * h * dv)
            normals.append(n)
            uvs.append(((du + 1) / 2, 1 - (dv + 1) / 2))
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return np.array(points), np.array(normals), np.array(uvs), indices


def orm_cube(path):
    size = 64
    x = np.arange(size)[None, :].repeat(size, 0)
    y = np.arange(size)[:, None].repeat(size, 1)
    occlusion = np.where((x // 8) % 2 == 0, 255, 90)
    roughness = np.where((y // 16) % 2 == 0, 40, 230)
    metal = np.where(x > size // 2, 255, 0)
    orm = png(np.stack([occlusion, roughness, metal], -1))
    color = png(np.tile([200, 150, 90], (size, size, 1)))
    blobs, attributes = mesh_blobs(*cube(1.2))
    materials = [{"name": "ORM", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}, "metallicRoughnessTexture": {"index": 0}},
                  "occlusionTexture": {"index": 0}}]
    turn = np.array([0.1, 0.3, 0, 0.95])
    turn = (turn / np.linalg.norm(turn)).tolist()
    glb(path, [{"mesh": 0, "rotation": turn}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}],
        materials, blobs, images=[orm, color])


def emissive(path):
    points, normals, uvs, indices = sphere()
    size = 64
    x = np.arange(size)[None, :].repeat(size, 0)
    stripes = np.where((x // 8) % 2 == 0, 255, 0)
    texture = png(np.stack([stripes, stripes * 0.6, stripes * 0.2], -1))
    blobs, attributes = mesh_blobs(points, normals, uvs, indices)
    materials = [{"name": "Glow", "pbrMetallicRoughness": {"baseColorFactor": [0.05, 0.05, 0.05, 1], "metallicFactor": 0, "roughnessFactor": 0.6},
                  "emissiveTexture": {"index": 0}, "emissiveFactor": [1, 1, 1]}]
    glb(path, [{"mesh": 0}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}], materials, blobs, images=[texture])


def alpha_modes(path):
    size = 64
    y, x = np.mgrid[0:size, 0:size]
    alpha = np.where(np.hypot(x - 31.5, y - 31.5) < 22, 255, 40)
    texture = png(np.stack([np.full_like(x, 230), np.full_like(x, 200), np.full_like(x, 60), alpha], -1))
    backdrop = grid_plane(1, 4.0, z=-0.6)
    quad = grid_plane(1, 1.0, z=0.0)
    # Vertex alpha 0.2 on the OPAQUE quad only (glTF multiplies it into alpha; OPAQUE ignores it).
    parts = [mesh_blobs(*backdrop), mesh_blobs(*quad, colors=[[1, 1, 1, 0.2]] * 4), mesh_blobs(*quad)]
    blobs, attribute_sets = [], []
    for part_blobs, attributes in parts:
        shift = len(blobs)
        attribute_sets.append(({k: v + shift for k, v in attributes.items()}, shift + 3))
        blobs += part_blobs
    materials = [{"name": "Backdrop", "pbrMetallicRoughness": {"baseColorFactor": [0.1, 0.3, 0.7, 1], "metallicFactor": 0, "roughnessFactor": 0.8}},
                 {"name": "Opaque", "alphaMode": "OPAQUE", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.3], "baseColorTexture": {"index": 0},
                                                                                     "metallicFactor": 0, "roughnessFactor": 0.5}},
                 {"name": "Mask", "alphaMode": "MASK", "alphaCutoff": 0.5, "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0, "roughnessFactor": 0.5}},
                 {"name": "Blend", "alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.6], "baseColorTexture": {"index": 0},
                                                                                   "metallicFactor": 0, "roughnessFactor": 0.5}}]
    meshes = [{"primitives": [{"attributes": attribute_sets[0][0], "indices": attribute_sets[0][1], "material": 0}]},
              {"primitives": [{"attributes": attribute_sets[1][0], "indices": attribute_sets[1][1], "material": 1}]},
              {"primitives": [{"attributes": attribute_sets[2][0], "indices": attribute_sets[2][1], "material": 2}]},
              {"primitives": [{"attributes": attribute_sets[2][0], "indices": attribute_sets[2][1], "material": 3}]}]
    nodes = [{"mesh": 0}, {"mesh": 1, "translation": [-1.2, 0, 0]}, {"mesh": 2, "translation": [0, 0, 0]}, {"mesh": 3, "translation": [1.2, 0, 0]}]
    glb(path, nodes, meshes, materials, blobs, images=[texture])


def texture_transform(path):
    size = 64
    y, x = np.mgrid[0:size, 0:size]
    checker = np.where(((x // 8) + (y // 8)) % 2 == 0, 230, 30)
    texture = png(np.stack([checker, checker * 0.5 + 60, np.full_like(x, 80)], -1))
    blobs, attributes = mesh_blobs(*grid_plane(1, 2.0))
    transform = {"KHR_texture_transform": {"offset": [0.25, 0.1], "rotation": 0.5, "scale": [1.5, 0.75]}}
    materials = [{"name": "Checker", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": transform}, "metallicFactor": 0, "roughnessFactor": 0.7}}]
    glb(path, [{"mesh": 0, "rotation": [-0.2588190, 0, 0, 0.9659258]}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}],
        materials, blobs, images=[texture], extensions=["KHR_texture_transform"],
        samplers=[{"wrapS": 10497, "wrapT": 10497}])


def spec_gloss(path):
    points, normals, uvs, indices = sphere()
    blobs, attributes = mesh_blobs(points, normals, uvs, indices)
    materials = [{"name": "Gold-ish", "extensions": {"KHR_materials_pbrSpecularGlossiness": {
        "diffuseFactor": [0.3, 0.05, 0.05, 1], "specularFactor": [0.9, 0.7, 0.3], "glossinessFactor": 0.7}}}]
    glb(path, [{"mesh": 0}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}], materials, blobs,
        extensions=["KHR_materials_pbrSpecularGlossiness"])


def clearcoat(path):
    points, normals, uvs, indices = sphere()
    blobs, attributes = mesh_blobs(points, normals, uvs, indices)
    materials = [{"name": "Coated", "pbrMetallicRoughness": {"baseColorFactor": [0.7, 0.05, 0.05, 1], "metallicFactor": 0, "roughnessFactor": 0.6},
                  "extensions": {"KHR_materials_clearcoat": {"clearcoatFactor": 1.0, "clearcoatRoughnessFactor": 0.05}}}]
    glb(path, [{"mesh": 0}], [{"primitives": [{"attributes": attributes, "indices": 3, "material": 0}]}], materials, blobs,
        extensions=["KHR_materials_clearcoat"])


def zup_usda(path):
    points, normals, uvs, indices = sphere(32, 16)
    # Z up: the sphere's Y-up points turned so +Y becomes +Z, stretched along Z so up matters.
    turned = [(p[0], -p[2], p[1] * 1.4) for p in points]
    counts = ", ".join(["3"] * (len(indices) // 3))
    fvi = ", ".join(str(i) for i in indices)
    pts = ", ".join(f"({x:.6f}, {y:.6f}, {z:.6f})" for x, y, z in turned)
    nrm = ", ".join(f"({p[0]:.6f}, {-p[2]:.6f}, {p[1]:.6f})" for p in normals)
    with open(path, "w") as f:
        f.write(f"""#usda 1.0
(
    defaultPrim = "World"
    metersPerUnit = 1
    upAxis = "Z"
)

def Xform "World"
{{
    def Mesh "Egg" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {{
        int[] faceVertexCounts = [{counts}]
        int[] faceVertexIndices = [{fvi}]
        point3f[] points = [{pts}]
        normal3f[] normals = [{nrm}] (
            interpolation = "vertex"
        )
        uniform token subdivisionScheme = "none"
        rel material:binding = </World/Looks/Copper>
    }}

    def Mesh "Ground" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {{
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(-2, -2, -1.4), (2, -2, -1.4), (2, 2, -1.4), (-2, 2, -1.4)]
        normal3f[] normals = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)] (
            interpolation = "vertex"
        )
        uniform token subdivisionScheme = "none"
        rel material:binding = </World/Looks/Slate>
    }}

    def Scope "Looks"
    {{
        def Material "Copper"
        {{
            token outputs:surface.connect = </World/Looks/Copper/Surface.outputs:surface>
            def Shader "Surface"
            {{
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = (0.95, 0.64, 0.54)
                float inputs:metallic = 1
                float inputs:roughness = 0.3
                token outputs:surface
            }}
        }}
        def Material "Slate"
        {{
            token outputs:surface.connect = </World/Looks/Slate/Surface.outputs:surface>
            def Shader "Surface"
            {{
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = (0.2, 0.25, 0.3)
                float inputs:roughness = 0.8
                token outputs:surface
            }}
        }}
    }}
}}
""")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sphere_grid(os.path.join(here, "sphere_grid.glb"))
    normal_plane(os.path.join(here, "normal_plane.glb"))
    orm_cube(os.path.join(here, "orm_cube.glb"))
    emissive(os.path.join(here, "emissive.glb"))
    alpha_modes(os.path.join(here, "alpha_modes.glb"))
    texture_transform(os.path.join(here, "texture_transform.glb"))
    spec_gloss(os.path.join(here, "spec_gloss.glb"))
    clearcoat(os.path.join(here, "clearcoat.glb"))
    zup_usda(os.path.join(here, "zup_sphere.usda"))
