// The C face of libdraco for FormatGLTF: Swift cannot call draco's C++ API directly here, and
// a handful of functions keep the C++ (exceptions, templates, unique_ptr) on this side.
#include "draco_bridge.h"

#include <cstdio>
#include <memory>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

struct assetc_draco_mesh {
    std::unique_ptr<draco::Mesh> mesh;
};

extern "C" assetc_draco_mesh *assetc_draco_decode(const uint8_t *data, size_t size, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char *>(data), size);
    draco::Decoder decoder;
    auto result = decoder.DecodeMeshFromBuffer(&buffer);
    if (!result.ok()) {
        if (error_size > 0) std::snprintf(error, error_size, "%s", result.status().error_msg());
        return nullptr;
    }
    auto *out = new (std::nothrow) assetc_draco_mesh;
    if (!out) {
        if (error_size > 0) std::snprintf(error, error_size, "out of memory");
        return nullptr;
    }
    out->mesh = std::move(result).value();
    return out;
}

extern "C" uint32_t assetc_draco_point_count(const assetc_draco_mesh *mesh) { return mesh->mesh->num_points(); }

extern "C" uint32_t assetc_draco_face_count(const assetc_draco_mesh *mesh) { return mesh->mesh->num_faces(); }

extern "C" void assetc_draco_indices(const assetc_draco_mesh *mesh, uint32_t *out) {
    const uint32_t faces = mesh->mesh->num_faces();
    for (uint32_t f = 0; f < faces; ++f) {
        const auto &face = mesh->mesh->face(draco::FaceIndex(f));
        for (int c = 0; c < 3; ++c) out[3 * f + c] = face[c].value();
    }
}

extern "C" int assetc_draco_attribute_components(const assetc_draco_mesh *mesh, uint32_t unique_id) {
    const draco::PointAttribute *attribute = mesh->mesh->GetAttributeByUniqueId(unique_id);
    return attribute ? attribute->num_components() : 0;
}

extern "C" int assetc_draco_attribute_floats(const assetc_draco_mesh *mesh, uint32_t unique_id, float *out, int components) {
    const draco::PointAttribute *attribute = mesh->mesh->GetAttributeByUniqueId(unique_id);
    if (!attribute || attribute->num_components() != components) return 1;
    const uint32_t points = mesh->mesh->num_points();
    for (uint32_t p = 0; p < points; ++p) {
        if (!attribute->ConvertValue<float>(attribute->mapped_index(draco::PointIndex(p)), components, out + static_cast<size_t>(p) * components)) {
            return 2;
        }
    }
    return 0;
}

extern "C" void assetc_draco_free(assetc_draco_mesh *mesh) { delete mesh; }
