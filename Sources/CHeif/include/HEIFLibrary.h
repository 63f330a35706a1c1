// libheif (Debian libheif1: 1.15 on Debian 12, 1.19 on Debian 13), loaded the first time a
// HEIC or AVIF file is met rather than linked: Debian 12's libheif links its HEVC and AV1
// codecs (x265, libaom, libde265, dav1d: about 30 MB of code), which every start of snap-poem
// would otherwise map and relocate, though few inputs are HEIF. Types and constants come
// from libheif's own header; the calls go through `snap_poem_heif_*`, which forward to the
// functions found in the loaded library. Only `SnapPoem`'s Image/HEIFDecoder.swift and
// Support/LibrarySetup.swift use it.
#ifndef SNAP_POEM_HEIF_LIBRARY_H
#define SNAP_POEM_HEIF_LIBRARY_H

#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

/// Loads libheif (`libheif.so.1`) and initialises it (`heif_init`) once; safe from any
/// thread. Returns NULL when it is ready, or a message saying why it is not (the library is
/// not installed, memory ran out, or it lacks a function snap-poem calls), valid on the
/// calling thread until its next call. After a failure, the next call tries again.
const char *snap_poem_heif_load(void);

/// The loaded libheif's version, e.g. "1.15.1"; "" before a successful load.
const char *snap_poem_heif_version(void);

/// Sets `context`'s own limits from snap-poem's (`ImageLimits`), before a file is read:
/// `max_side` pixels a side, `max_pixels` pixels in all, and `max_block_bytes` for one block
/// of memory libheif takes for the file's boxes or planes. Where the loaded libheif has
/// security limits (1.19 on: `heif_context_get_security_limits`), the image area and the
/// largest memory block are lowered to these, never raised; before, only
/// `heif_context_set_maximum_image_size_limit` exists, a bound on each side.
void snap_poem_heif_set_limits(struct heif_context *context, int max_side, uint64_t max_pixels,
                               uint64_t max_block_bytes);

// Forwarders to the libheif functions of the same name without the prefix; call only after
// `snap_poem_heif_load` returned NULL.
int snap_poem_heif_have_decoder_for_format(enum heif_compression_format format);
struct heif_context *snap_poem_heif_context_alloc(void);
void snap_poem_heif_context_free(struct heif_context *context);
void snap_poem_heif_context_set_max_decoding_threads(struct heif_context *context, int threads);
struct heif_error snap_poem_heif_context_read_from_memory_without_copy(struct heif_context *context,
                                                                       const void *data, size_t size,
                                                                       const struct heif_reading_options *options);
struct heif_error snap_poem_heif_context_get_primary_image_handle(struct heif_context *context,
                                                                  struct heif_image_handle **handle);
int snap_poem_heif_context_get_number_of_top_level_images(struct heif_context *context);
void snap_poem_heif_image_handle_release(const struct heif_image_handle *handle);
int snap_poem_heif_image_handle_get_width(const struct heif_image_handle *handle);
int snap_poem_heif_image_handle_get_height(const struct heif_image_handle *handle);
int snap_poem_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle);
struct heif_decoding_options *snap_poem_heif_decoding_options_alloc(void);
void snap_poem_heif_decoding_options_free(struct heif_decoding_options *options);
struct heif_error snap_poem_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **image,
                                              enum heif_colorspace colorspace, enum heif_chroma chroma,
                                              const struct heif_decoding_options *options);
void snap_poem_heif_image_release(const struct heif_image *image);
int snap_poem_heif_image_get_width(const struct heif_image *image, enum heif_channel channel);
int snap_poem_heif_image_get_height(const struct heif_image *image, enum heif_channel channel);
const uint8_t *snap_poem_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel,
                                                       int *stride);

#endif
