// The C face of libdraco for FormatGLTF: Swift cannot call draco's C++ API directly here, and
// a handful of functions keep the C++ (exceptions, templates, unique_ptr) on this side.
#include "draco_bridge.h"

#include <cstdio>
#include <cstring>
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

extern "C" int assetc_draco_attribute_type(const assetc_draco_mesh *mesh, uint32_t unique_id, int *normalized) {
    const draco::PointAttribute *attribute = mesh->mesh->GetAttributeByUniqueId(unique_id);
    if (!attribute) return 0;
    if (normalized) *normalized = attribute->normalized() ? 1 : 0;
    switch (attribute->data_type()) {
        case draco::DT_INT8: return 5120;
        case draco::DT_UINT8: return 5121;
        case draco::DT_INT16: return 5122;
        case draco::DT_UINT16: return 5123;
        case draco::DT_UINT32: return 5125;
        case draco::DT_FLOAT32: return 5126;
        default: return 0;
    }
}

// Integer values are read through a typed copy rather than ConvertValue<float>, which would apply
// the Draco-side normalized flag; whether they are normalized is the glTF accessor's to say.
template <typename T>
static bool copy_components(const draco::PointAttribute *attribute, uint32_t points, int components, float *out) {
    T value[4];
    const int64_t size = static_cast<int64_t>(attribute->buffer()->data_size());
    for (uint32_t p = 0; p < points; ++p) {
        const draco::AttributeValueIndex index = attribute->mapped_index(draco::PointIndex(p));
        const int64_t at = attribute->GetBytePos(index);
        if (at < 0 || at + static_cast<int64_t>(sizeof(T)) * components > size) return false;
        std::memcpy(value, attribute->GetAddress(index), sizeof(T) * components);
        for (int c = 0; c < components; ++c) out[static_cast<size_t>(p) * components + c] = static_cast<float>(value[c]);
    }
    return true;
}

extern "C" int assetc_draco_attribute_floats(const assetc_draco_mesh *mesh, uint32_t unique_id, float *out, int components) {
    const draco::PointAttribute *attribute = mesh->mesh->GetAttributeByUniqueId(unique_id);
    if (!attribute || attribute->num_components() != components || components < 1 || components > 4) return 1;
    const uint32_t points = mesh->mesh->num_points();
    bool ok = false;
    switch (attribute->data_type()) {
        case draco::DT_INT8: ok = copy_components<int8_t>(attribute, points, components, out); break;
        case draco::DT_UINT8: ok = copy_components<uint8_t>(attribute, points, components, out); break;
        case draco::DT_INT16: ok = copy_components<int16_t>(attribute, points, components, out); break;
        case draco::DT_UINT16: ok = copy_components<uint16_t>(attribute, points, components, out); break;
        case draco::DT_UINT32: ok = copy_components<uint32_t>(attribute, points, components, out); break;
        case draco::DT_FLOAT32: ok = copy_components<float>(attribute, points, components, out); break;
        default: return 3;
    }
    return ok ? 0 : 2;
}

extern "C" void assetc_draco_free(assetc_draco_mesh *mesh) { delete mesh; }
