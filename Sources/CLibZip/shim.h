#ifndef ASSETC_CLIBZIP_SHIM_H
#define ASSETC_CLIBZIP_SHIM_H
#include <zip.h>
#endif
