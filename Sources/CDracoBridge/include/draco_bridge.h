#ifndef ASSETC_DRACO_BRIDGE_H
#define ASSETC_DRACO_BRIDGE_H
/* A C face for the one thing assetc asks of Debian's libdraco (whose API is C++): decode a
   glTF KHR_draco_mesh_compression buffer into triangle indices and per-point float attributes. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct assetc_draco_mesh assetc_draco_mesh;

/* NULL on failure, with a message in `error` (always terminated). */
assetc_draco_mesh *assetc_draco_decode(const uint8_t *data, size_t size, char *error, size_t error_size);
uint32_t assetc_draco_point_count(const assetc_draco_mesh *mesh);
uint32_t assetc_draco_face_count(const assetc_draco_mesh *mesh);
/* 3 x face_count indices into the points. */
void assetc_draco_indices(const assetc_draco_mesh *mesh, uint32_t *out);
/* Components per value of the attribute with this unique id, or 0 when there is none. */
int assetc_draco_attribute_components(const assetc_draco_mesh *mesh, uint32_t unique_id);
/* The attribute's stored component type, as a glTF componentType (5120 BYTE ... 5126 FLOAT), or 0 for
   a type glTF has no name for; `normalized` receives the flag the Draco data carries. */
int assetc_draco_attribute_type(const assetc_draco_mesh *mesh, uint32_t unique_id, int *normalized);
/* point_count x components floats: floats as decoded (Draco's own quantization undone), integers as
   their plain values, never normalized here (the glTF accessor says whether they are); 0 on success. */
int assetc_draco_attribute_floats(const assetc_draco_mesh *mesh, uint32_t unique_id, float *out, int components);
void assetc_draco_free(assetc_draco_mesh *mesh);

/* One attribute to encode: `components` values per point, of `component_type` as a glTF
   componentType (5121 UNSIGNED_BYTE, 5123 UNSIGNED_SHORT, 5126 FLOAT), point_count x components of
   them at `values`. `kind` is draco's GeometryAttribute::Type (0 POSITION, 1 NORMAL, 2 COLOR,
   3 TEX_COORD, 4 GENERIC); `quantization_bits` 0 keeps the values exact. */
typedef struct {
    int kind;
    int components;
    int component_type;
    const void *values;
    int quantization_bits;
} assetc_draco_attribute_input;

/* Encodes a triangle mesh of `point_count` points with the edgebreaker coder, or the sequential
   one (which keeps the points' order) when `sequential` is set. On success returns a malloc'd
   buffer of *size bytes (free it with assetc_draco_free_bytes) and each attribute's unique id in
   `unique_ids`; NULL with a message in `error` otherwise. */
uint8_t *assetc_draco_encode(uint32_t point_count, const uint32_t *indices, uint32_t face_count,
                             const assetc_draco_attribute_input *attributes, int attribute_count, int sequential,
                             size_t *size, uint32_t *unique_ids, char *error, size_t error_size);
void assetc_draco_free_bytes(uint8_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
