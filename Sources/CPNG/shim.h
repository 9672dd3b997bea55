#ifndef ASSETC_CPNG_SHIM_H
#define ASSETC_CPNG_SHIM_H
#include <png.h>
/* Compound macros do not import into Swift; these are the values assetc uses. */
static const unsigned int assetc_png_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int assetc_png_image_version = PNG_IMAGE_VERSION;
static inline size_t assetc_png_image_size(png_image *image) { return PNG_IMAGE_SIZE(*image); }

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* The classic write API, for what the simplified one does not offer: the zlib level and the row
   filters, which decide most of a PNG's encoding time. Its setjmp/longjmp error handling stays in
   these C frames (longjmp across Swift frames is unsafe). */
typedef struct { unsigned char *data; size_t size, capacity; int failed; } assetc_png_buffer;

static void assetc_png_append(png_structp png, png_bytep bytes, png_size_t length) {
    assetc_png_buffer *out = (assetc_png_buffer *)png_get_io_ptr(png);
    if (out->failed) return;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
        if (!grown) { out->failed = 1; return; }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static void assetc_png_flush(png_structp png) { (void)png; }

/* 8-bit RGBA rows as a PNG with zlib `level` and the row `filters` (PNG_ALL_FILTERS,
   PNG_FILTER_UP, ...). Returns the bytes (free() them) and their count, or NULL. */
static inline unsigned char *assetc_png_encode_rgba(const unsigned char *pixels, unsigned width, unsigned height,
                                                    int level, int filters, size_t *size) {
    assetc_png_buffer buffer = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return NULL;
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer.data);
        return NULL;
    }
    png_set_write_fn(png, &buffer, assetc_png_append, assetc_png_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    for (unsigned y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (buffer.failed) { free(buffer.data); return NULL; }
    *size = buffer.size;
    return buffer.data;
}
static const int assetc_png_filter_up = PNG_FILTER_UP;
static const int assetc_png_filter_paeth = PNG_FILTER_PAETH;
#endif
