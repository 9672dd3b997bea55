#ifndef ASSETC_CSTBIMAGE_SHIM_H
#define ASSETC_CSTBIMAGE_SHIM_H
/* Debian's libstb-dev (stb_image, compiled into libstb): decoding the texture formats AR Quick
   Look does not read (BMP, TGA, GIF, PSD, PNM) so `validate --fix` can package them as PNG. */
#include <stb/stb_image.h>
#endif
