#ifndef ASSETC_CWEBP_SHIM_H
#define ASSETC_CWEBP_SHIM_H
/* Debian's libwebp-dev: decoding the WebP textures glTF's EXT_texture_webp carries. */
#include <webp/decode.h>
#endif
