#ifndef ASSETC_CTURBOJPEG_SHIM_H
#define ASSETC_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
static const int assetc_tj_pixel_rgba = TJPF_RGBA;
#endif
