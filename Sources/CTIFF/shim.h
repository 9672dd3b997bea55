#ifndef ASSETC_CTIFF_SHIM_H
#define ASSETC_CTIFF_SHIM_H
/* Debian's libtiff-dev: TIFF textures (what Maya, 3ds Max and Substance exports carry) decoded to
   RGBA by libtiff's own RGBA interface, which knows every photometric and compression it reads. */
#include <tiffio.h>
static const int assetc_tiff_orientation_topleft = ORIENTATION_TOPLEFT;
/* TIFFGetField is variadic, which Swift cannot call. */
static inline int assetc_tiff_size(TIFF *tiff, uint32_t *width, uint32_t *height) {
    return TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, width) == 1 && TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, height) == 1;
}
#endif
