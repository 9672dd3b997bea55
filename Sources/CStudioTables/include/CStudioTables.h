#ifndef ASSETC_STUDIO_TABLES_H
#define ASSETC_STUDIO_TABLES_H
#include <stddef.h>
#include <stdint.h>

/* The renderer's built-in tables, computed ahead of time by Scripts/generate-studio-tables (AssetRender's own
   prefilter and split-sum integration, run once) so that no process pays for them at start-up. Values are
   IEEE-754 single-precision bit patterns. AssetRenderTests checks them against the runtime computation. */

/* The studio environment's nine irradiance coefficients, RGB each. */
const uint32_t *assetc_studio_irradiance(size_t *count);
/* Widths of the prefiltered specular levels (each is half as high as wide). */
const uint32_t *assetc_studio_level_widths(size_t *count);
/* The levels' texels, one grey channel (the studio is grey), level after level, row by row. */
const uint32_t *assetc_studio_texels(size_t *count);
/* The split-sum table: (A, B) pairs, rows by roughness, columns by n.v. */
const uint32_t *assetc_brdf_table(size_t *count);

#endif
