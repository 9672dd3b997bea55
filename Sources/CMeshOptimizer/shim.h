#ifndef ASSETC_CMESHOPTIMIZER_SHIM_H
#define ASSETC_CMESHOPTIMIZER_SHIM_H
/* Debian's libmeshoptimizer-dev: the decoders behind glTF's EXT_meshopt_compression. */
#include <meshoptimizer.h>
#endif
