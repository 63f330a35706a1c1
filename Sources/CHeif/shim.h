// libheif (Debian libheif-dev: 1.15 on Debian 12, 1.19 on Debian 13), through the few calls
// snap-poem's HEIF decoder makes (Sources/SnapPoem/Image/HEIFDecoder.swift), and one helper
// that sets a context's limits in whichever way the installed release offers.
#ifndef SNAP_POEM_CHEIF_SHIM_H
#define SNAP_POEM_CHEIF_SHIM_H

#include <libheif/heif.h>
#include <stdint.h>

/// Sets `context`'s own limits from snap-poem's (`ImageLimits`), before a file is read:
/// `max_side` pixels a side, `max_pixels` pixels in all, and `max_block_bytes` for one block
/// of memory libheif takes for the file's boxes or planes. From libheif 1.19 on through its
/// security limits (`heif_context_get_security_limits`: the image area and the largest
/// memory block, each only ever lowered; the context keeps its other defaults); before,
/// libheif has only `heif_context_set_maximum_image_size_limit`, a bound on each side.
static inline void snap_poem_heif_set_limits(struct heif_context *context, int max_side, uint64_t max_pixels,
                                             uint64_t max_block_bytes) {
#if LIBHEIF_NUMERIC_VERSION >= ((1 << 24) | (19 << 16))
    // Only ever tightened: libheif's own defaults stand where they are stricter (0 is none).
    struct heif_security_limits *limits = heif_context_get_security_limits(context);
    if (limits != 0) {
        if (limits->max_image_size_pixels == 0 || max_pixels < limits->max_image_size_pixels) {
            limits->max_image_size_pixels = max_pixels;
        }
        if (limits->max_memory_block_size == 0 || max_block_bytes < limits->max_memory_block_size) {
            limits->max_memory_block_size = max_block_bytes;
        }
    }
    (void)max_side;
#else
    heif_context_set_maximum_image_size_limit(context, max_side);
    (void)max_pixels;
    (void)max_block_bytes;
#endif
}

/// The installed libheif's version, e.g. "1.15.1" (`heif_get_version`).
static inline const char *snap_poem_heif_version(void) { return heif_get_version(); }

#endif
