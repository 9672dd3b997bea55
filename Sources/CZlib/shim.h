#ifndef ASSETC_CZLIB_SHIM_H
#define ASSETC_CZLIB_SHIM_H
#include <zlib.h>
#endif
