#ifndef ASSETC_CWEBP_SHIM_H
#define ASSETC_CWEBP_SHIM_H
/* Debian's libwebp-dev: decoding the WebP textures glTF's EXT_texture_webp carries, and encoding
   the animated previews of `thumbnail --frames` (libwebpmux's WebPAnimEncoder). */
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>
#endif
