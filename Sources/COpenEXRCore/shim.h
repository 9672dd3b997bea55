#ifndef ASSETC_COPENEXRCORE_SHIM_H
#define ASSETC_COPENEXRCORE_SHIM_H
/* Debian's libopenexr-dev: OpenEXRCore, the C API of OpenEXR 3, reads `.exr` environments
   (`--environment`). The rest of OpenEXR is C++ and is not linked. */
#include <OpenEXR/openexr.h>

/* EXR_DEFAULT_CONTEXT_INITIALIZER is a braced macro, which Swift does not import. */
static inline exr_context_initializer_t assetc_exr_default_initializer(void) {
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    return init;
}
#endif
