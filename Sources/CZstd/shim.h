#ifndef ASSETC_CZSTD_SHIM_H
#define ASSETC_CZSTD_SHIM_H
/* Zstandard, for SPZ v4's attribute streams. */
#include <zstd.h>
#endif
