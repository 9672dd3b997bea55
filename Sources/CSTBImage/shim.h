#ifndef ASSETC_CSTBIMAGE_SHIM_H
#define ASSETC_CSTBIMAGE_SHIM_H
/* Debian's libstb-dev (compiled into libstb): stb_image decodes the texture formats AR Quick Look
   does not read (BMP, TGA, GIF, PSD, PNM) so `validate --fix` can package them as PNG;
   stb_image_resize (its first, scalar version) is the reference AssetImage's own resampler is
   tested against (AssetRenderTests/ResamplerReferenceTests). */
#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>
static const int assetc_stbir_alpha_none = STBIR_ALPHA_CHANNEL_NONE;
static const int assetc_stbir_flag_alpha_premultiplied = STBIR_FLAG_ALPHA_PREMULTIPLIED;
#endif
