#ifndef ASSETC_CDEFLATE_SHIM_H
#define ASSETC_CDEFLATE_SHIM_H
/* libdeflate: zlib streams several times faster than zlib's own at the same level, for the FBX
   writer's deflated arrays and for PNG (AssetImage's PNGStream writes every PNG assetc makes and
   reads the 8-bit RGB and RGBA ones). */
#include <libdeflate.h>
#endif
