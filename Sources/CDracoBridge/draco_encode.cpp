// The encoding half of the bridge: builds a draco::Mesh from flat arrays and codes it with
// draco's ExpertEncoder, so each attribute gets its own quantization (weights stay exact).
#include "draco_bridge.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <draco/compression/expert_encode.h>
#include <draco/mesh/mesh.h>

static bool data_type(int component_type, draco::DataType *type) {
    switch (component_type) {
        case 5121: *type = draco::DT_UINT8; return true;
        case 5123: *type = draco::DT_UINT16; return true;
        case 5125: *type = draco::DT_UINT32; return true;
        case 5126: *type = draco::DT_FLOAT32; return true;
        default: return false;
    }
}

extern "C" uint8_t *assetc_draco_encode(uint32_t point_count, const uint32_t *indices, uint32_t face_count,
                                        const assetc_draco_attribute_input *attributes, int attribute_count, int sequential,
                                        size_t *size, uint32_t *unique_ids, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    draco::Mesh mesh;
    mesh.set_num_points(point_count);
    mesh.SetNumFaces(face_count);
    for (uint32_t f = 0; f < face_count; ++f) {
        draco::Mesh::Face face;
        for (int c = 0; c < 3; ++c) {
            if (indices[3 * f + c] >= point_count) {
                if (error_size > 0) std::snprintf(error, error_size, "face %u names point %u of %u", f, indices[3 * f + c], point_count);
                return nullptr;
            }
            face[c] = draco::PointIndex(indices[3 * f + c]);
        }
        mesh.SetFace(draco::FaceIndex(f), face);
    }
    for (int a = 0; a < attribute_count; ++a) {
        const assetc_draco_attribute_input &input = attributes[a];
        draco::DataType type;
        if (!data_type(input.component_type, &type) || input.components < 1 || input.components > 4) {
            if (error_size > 0) std::snprintf(error, error_size, "attribute %d has a shape draco does not take", a);
            return nullptr;
        }
        const int element = draco::DataTypeLength(type) * input.components;
        draco::GeometryAttribute geometry;
        geometry.Init(static_cast<draco::GeometryAttribute::Type>(input.kind), nullptr, input.components, type, false, element, 0);
        const int id = mesh.AddAttribute(geometry, true, point_count);
        draco::PointAttribute *attribute = mesh.attribute(id);
        const auto *bytes = static_cast<const uint8_t *>(input.values);
        for (uint32_t p = 0; p < point_count; ++p) attribute->SetAttributeValue(draco::AttributeValueIndex(p), bytes + size_t(p) * element);
        unique_ids[a] = attribute->unique_id();
    }
    draco::ExpertEncoder encoder(mesh);
    for (int a = 0; a < attribute_count; ++a) {
        if (attributes[a].quantization_bits > 0 && attributes[a].component_type == 5126) encoder.SetAttributeQuantization(a, attributes[a].quantization_bits);
    }
    encoder.SetSpeedOptions(sequential ? 10 : 5, sequential ? 10 : 5);
    encoder.SetEncodingMethod(sequential ? draco::MESH_SEQUENTIAL_ENCODING : draco::MESH_EDGEBREAKER_ENCODING);
    draco::EncoderBuffer buffer;
    const draco::Status status = encoder.EncodeToBuffer(&buffer);
    if (!status.ok()) {
        if (error_size > 0) std::snprintf(error, error_size, "%s", status.error_msg());
        return nullptr;
    }
    auto *out = static_cast<uint8_t *>(std::malloc(buffer.size() > 0 ? buffer.size() : 1));
    if (!out) {
        if (error_size > 0) std::snprintf(error, error_size, "out of memory");
        return nullptr;
    }
    std::memcpy(out, buffer.data(), buffer.size());
    *size = buffer.size();
    return out;
}

extern "C" void assetc_draco_free_bytes(uint8_t *bytes) { std::free(bytes); }
