#ifndef ASSETC_CDEFLATE_SHIM_H
#define ASSETC_CDEFLATE_SHIM_H
/* libdeflate, for the FBX writer's deflated arrays: zlib streams as FBX requires, several times
   faster than zlib's own deflate at the same level (a 1M-triangle character's arrays are most of
   its writing time). */
#include <libdeflate.h>
#endif
