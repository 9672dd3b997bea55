#ifndef ASSETC_CPNG_SHIM_H
#define ASSETC_CPNG_SHIM_H
/* libpng, for decoding the PNG forms assetc does not read itself (palettes, grey, 16 bits,
   interlacing, gamma and colour chunks) through the simplified png_image API; assetc writes its
   PNGs with libdeflate (AssetImage's PNGStream). */
#include <png.h>
/* Compound macros do not import into Swift; these are the values assetc uses. */
static const unsigned int assetc_png_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int assetc_png_image_version = PNG_IMAGE_VERSION;
static inline size_t assetc_png_image_size(png_image *image) { return PNG_IMAGE_SIZE(*image); }
#endif
