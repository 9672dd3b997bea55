#ifndef ASSETC_CTURBOJPEG_SHIM_H
#define ASSETC_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
static const int assetc_tj_pixel_rgba = TJPF_RGBA;
static const int assetc_tj_subsampling_420 = TJSAMP_420;
static const int assetc_tj_subsampling_444 = TJSAMP_444;
#endif
