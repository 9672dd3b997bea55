#ifndef ASSETC_CLZ4_SHIM_H
#define ASSETC_CLZ4_SHIM_H
#include <lz4.h>
#endif
