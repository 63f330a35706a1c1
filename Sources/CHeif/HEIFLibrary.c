// See include/HEIFLibrary.h. libheif is opened with dlopen the first time a HEIF file is met,
// and its functions are found with dlsym; the library stays loaded for the process.
#include "HEIFLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Every function snap-poem calls, each with its type from libheif's header.
#define SNAP_POEM_HEIF_REQUIRED(X)                                                                                     \
    X(heif_init)                                                                                                       \
    X(heif_get_version)                                                                                                \
    X(heif_have_decoder_for_format)                                                                                    \
    X(heif_context_alloc)                                                                                              \
    X(heif_context_free)                                                                                               \
    X(heif_context_set_maximum_image_size_limit)                                                                       \
    X(heif_context_set_max_decoding_threads)                                                                           \
    X(heif_context_read_from_memory_without_copy)                                                                      \
    X(heif_context_get_primary_image_handle)                                                                           \
    X(heif_context_get_number_of_top_level_images)                                                                     \
    X(heif_image_handle_release)                                                                                       \
    X(heif_image_handle_get_width)                                                                                     \
    X(heif_image_handle_get_height)                                                                                    \
    X(heif_image_handle_has_alpha_channel)                                                                             \
    X(heif_decoding_options_alloc)                                                                                     \
    X(heif_decoding_options_free)                                                                                      \
    X(heif_decode_image)                                                                                               \
    X(heif_image_release)                                                                                              \
    X(heif_image_get_width)                                                                                            \
    X(heif_image_get_height)                                                                                           \
    X(heif_image_get_plane_readonly)

#define SNAP_POEM_HEIF_POINTER(name) static __typeof__(name) *loaded_##name;
SNAP_POEM_HEIF_REQUIRED(SNAP_POEM_HEIF_POINTER)

// libheif 1.19's security limits, where the loaded library has them. Declared here with the
// layout libheif 1.19 gives its struct's first fields, so that this file also compiles
// against the older header; only those two fields are written.
struct snap_poem_heif_security_limits {
    uint8_t version;
    uint64_t max_image_size_pixels;
    uint64_t max_number_of_tiles;
    uint32_t max_bayer_pattern_pixels;
    uint32_t max_items;
    uint32_t max_color_profile_size;
    uint64_t max_memory_block_size;
};
typedef struct snap_poem_heif_security_limits *(*snap_poem_heif_get_security_limits)(const struct heif_context *);
static snap_poem_heif_get_security_limits loaded_get_security_limits;

// Loading is tried again after a failure (a batch worker short of memory at one moment may
// have memory at the next); once it succeeds, the functions never change.
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;
static const char *load_failure;
static _Thread_local char load_message[512];

static void load_library(void) {
    load_failure = NULL;
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        if (reason == NULL) {
            reason = "libheif.so.1: not found";
        }
        if (strstr(reason, "No such file") != NULL) {
            snprintf(load_message, sizeof load_message, "libheif is not installed (%s); install the package libheif1",
                     reason);
        } else if (strstr(reason, "failed to map") != NULL || strstr(reason, "memory") != NULL) {
            snprintf(load_message, sizeof load_message, "out of memory while loading libheif (%s)", reason);
        } else {
            snprintf(load_message, sizeof load_message, "libheif could not be loaded (%s)", reason);
        }
        load_failure = load_message;
        return;
    }
#define SNAP_POEM_HEIF_RESOLVE(name)                                                                                   \
    loaded_##name = (__typeof__(name) *)dlsym(library, #name);                                                         \
    if (loaded_##name == NULL) {                                                                                       \
        snprintf(load_message, sizeof load_message, "the installed libheif has no %s", #name);                         \
        load_failure = load_message;                                                                                   \
        return;                                                                                                        \
    }
    SNAP_POEM_HEIF_REQUIRED(SNAP_POEM_HEIF_RESOLVE)
#undef SNAP_POEM_HEIF_RESOLVE
    loaded_get_security_limits =
        (snap_poem_heif_get_security_limits)dlsym(library, "heif_context_get_security_limits");
    // Loads the decoder plugins from 1.14 on (Debian 13's HEVC and AV1 decoders are plugins);
    // never paired with heif_deinit, as libheif counts its initialisations.
    loaded_heif_init(NULL);
    loaded = 1;
}

const char *snap_poem_heif_load(void) {
    pthread_mutex_lock(&load_lock);
    if (!loaded) {
        load_library();
    }
    const char *failure = loaded ? NULL : load_failure;
    pthread_mutex_unlock(&load_lock);
    return failure;
}

const char *snap_poem_heif_version(void) {
    if (snap_poem_heif_load() != NULL) {
        return "";
    }
    return loaded_heif_get_version();
}

void snap_poem_heif_set_limits(struct heif_context *context, int max_side, uint64_t max_pixels,
                               uint64_t max_block_bytes) {
    struct snap_poem_heif_security_limits *limits =
        loaded_get_security_limits ? loaded_get_security_limits(context) : NULL;
    if (limits == NULL) {
        loaded_heif_context_set_maximum_image_size_limit(context, max_side);
        return;
    }
    // Only ever tightened: libheif's own defaults stand where they are stricter (0 is none).
    if (limits->max_image_size_pixels == 0 || max_pixels < limits->max_image_size_pixels) {
        limits->max_image_size_pixels = max_pixels;
    }
    if (limits->max_memory_block_size == 0 || max_block_bytes < limits->max_memory_block_size) {
        limits->max_memory_block_size = max_block_bytes;
    }
}

int snap_poem_heif_have_decoder_for_format(enum heif_compression_format format) {
    return loaded_heif_have_decoder_for_format(format);
}
struct heif_context *snap_poem_heif_context_alloc(void) { return loaded_heif_context_alloc(); }
void snap_poem_heif_context_free(struct heif_context *context) { loaded_heif_context_free(context); }
void snap_poem_heif_context_set_max_decoding_threads(struct heif_context *context, int threads) {
    loaded_heif_context_set_max_decoding_threads(context, threads);
}
struct heif_error snap_poem_heif_context_read_from_memory_without_copy(struct heif_context *context,
                                                                       const void *data, size_t size,
                                                                       const struct heif_reading_options *options) {
    return loaded_heif_context_read_from_memory_without_copy(context, data, size, options);
}
struct heif_error snap_poem_heif_context_get_primary_image_handle(struct heif_context *context,
                                                                  struct heif_image_handle **handle) {
    return loaded_heif_context_get_primary_image_handle(context, handle);
}
int snap_poem_heif_context_get_number_of_top_level_images(struct heif_context *context) {
    return loaded_heif_context_get_number_of_top_level_images(context);
}
void snap_poem_heif_image_handle_release(const struct heif_image_handle *handle) {
    loaded_heif_image_handle_release(handle);
}
int snap_poem_heif_image_handle_get_width(const struct heif_image_handle *handle) {
    return loaded_heif_image_handle_get_width(handle);
}
int snap_poem_heif_image_handle_get_height(const struct heif_image_handle *handle) {
    return loaded_heif_image_handle_get_height(handle);
}
int snap_poem_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle) {
    return loaded_heif_image_handle_has_alpha_channel(handle);
}
struct heif_decoding_options *snap_poem_heif_decoding_options_alloc(void) {
    return loaded_heif_decoding_options_alloc();
}
void snap_poem_heif_decoding_options_free(struct heif_decoding_options *options) {
    loaded_heif_decoding_options_free(options);
}
struct heif_error snap_poem_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **image,
                                              enum heif_colorspace colorspace, enum heif_chroma chroma,
                                              const struct heif_decoding_options *options) {
    return loaded_heif_decode_image(handle, image, colorspace, chroma, options);
}
void snap_poem_heif_image_release(const struct heif_image *image) { loaded_heif_image_release(image); }
int snap_poem_heif_image_get_width(const struct heif_image *image, enum heif_channel channel) {
    return loaded_heif_image_get_width(image, channel);
}
int snap_poem_heif_image_get_height(const struct heif_image *image, enum heif_channel channel) {
    return loaded_heif_image_get_height(image, channel);
}
const uint8_t *snap_poem_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel,
                                                       int *stride) {
    return loaded_heif_image_get_plane_readonly(image, channel, stride);
}
