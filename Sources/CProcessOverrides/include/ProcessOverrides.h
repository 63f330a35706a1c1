// The snap-poem executable's own replacements of functions that Tesseract and Leptonica call
// in other libraries, each for speed or for quiet codecs. They live only in this target,
// which only the executable (and the tests) link: a program that imports the SnapPoem
// library gets Tesseract's, Leptonica's, libgomp's, libpng's and libjpeg's own functions.
//
// The replacements are definitions of the libraries' own function names. The executable
// exports them (Package.swift names each with --export-dynamic-symbol), so the dynamic linker
// binds Tesseract's and Leptonica's calls to them; each hands every call it does not handle
// to the library's definition (dlsym RTLD_NEXT). Until `snap_poem_overrides_install` runs,
// and for every override it leaves off, each of them only hands its calls on.
//
//   name                    functions                                    what it saves
//   line-images             pixWriteMemPng                               deflating each text line's image (LineImageEncoding.cpp)
//   universal-ambiguities   tesseract::UnicharAmbigs::LoadUniversal      parsing the legacy engine's table per language (UniversalAmbiguities.cpp)
//   inline-openmp           GOMP_parallel, GOMP_parallel_sections,       libgomp's team-of-one set-up per region (SerialOpenMP.cpp)
//                           GOMP_sections_next, GOMP_sections_end_nowait,
//                           omp_get_thread_num, omp_get_num_threads
//   brick-morphology        pixErodeBrick, pixDilateBrick, pixOpenBrick, one pass per brick pixel in line finding (BrickMorphology.cpp)
//                           pixCloseBrick
//   codec-messages          png_create_read_struct, png_create_write_struct, the codecs' own printing (CodecMessages.cpp)
//                           jpeg_std_error (and Leptonica's and libtiff's handlers)
//   image-memory            (Leptonica's allocator, setPixMemoryManager)  page faults of new images (ImageMemory.cpp)
//
// SNAP_POEM_NO_OVERRIDES switches them off: "all", or a comma-separated list of names. The
// text read is the same either way (the tests compare it).
#ifndef SNAP_POEM_PROCESS_OVERRIDES_H
#define SNAP_POEM_PROCESS_OVERRIDES_H

#include <stddef.h>

#include <leptonica/allheaders.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The overrides, in the order of the table above.
typedef enum {
    SNAP_POEM_OVERRIDE_LINE_IMAGES = 0,
    SNAP_POEM_OVERRIDE_UNIVERSAL_AMBIGUITIES = 1,
    SNAP_POEM_OVERRIDE_INLINE_OPENMP = 2,
    SNAP_POEM_OVERRIDE_BRICK_MORPHOLOGY = 3,
    SNAP_POEM_OVERRIDE_CODEC_MESSAGES = 4,
    SNAP_POEM_OVERRIDE_IMAGE_MEMORY = 5,
    SNAP_POEM_OVERRIDE_COUNT = 6,
} snap_poem_override;

/// What became of an override.
typedef enum {
    /// `snap_poem_overrides_install` has not run: the override hands every call on.
    SNAP_POEM_OVERRIDE_NOT_INSTALLED = 0,
    /// In effect: the libraries' calls reach it, and it does its work.
    SNAP_POEM_OVERRIDE_IN_EFFECT = 1,
    /// Switched off by SNAP_POEM_NO_OVERRIDES (or by `snap_poem_override_set_enabled`).
    SNAP_POEM_OVERRIDE_SWITCHED_OFF = 2,
    /// The libraries' calls do not reach it (a function is not exported by this program, or
    /// the library has no definition of its own to hand calls on to): left off.
    SNAP_POEM_OVERRIDE_NOT_BOUND = 3,
} snap_poem_override_state;

/// Reads SNAP_POEM_NO_OVERRIDES, checks for each override that the dynamic linker binds its
/// functions to this program's definitions ahead of the library's own, switches on those
/// that are bound and not switched off, and installs the SnapPoem library's process hooks
/// (`snap_poem_install_process_hooks`) through which they learn what the library is doing.
/// Call once, first thing in `main`; later calls do nothing.
void snap_poem_overrides_install(void);

/// The override's name ("line-images"), or NULL past the last.
const char *snap_poem_override_name(int override);
/// The functions it defines, comma-separated ("pixWriteMemPng"), or "" for none.
const char *snap_poem_override_functions(int override);
/// What became of it (`snap_poem_override_state`).
int snap_poem_override_state_of(int override);
/// Switches an installed, bound override on (1) or off (0), for the tests that compare the
/// text read both ways; the state says SWITCHED_OFF while it is off. Returns the new state.
int snap_poem_override_set_enabled(int override, int enabled);

/// Leptonica's own pixErodeBrick, pixDilateBrick, pixOpenBrick or pixCloseBrick (`kind`
/// 0–3) of `pixs` into a new Pix, past the definitions here: for the tests that compare them.
/// Null where Leptonica returns null.
PIX *snap_poem_leptonica_brick(int kind, PIX *pixs, int hsize, int vsize);
/// The same, computed here (brick-morphology, BrickMorphology.cpp) whether the override is
/// on or not; Leptonica's result where this file hands the call on.
PIX *snap_poem_brick_morphology(int kind, PIX *pixs, int hsize, int vsize);
/// 1 when the calling thread's OpenMP regions run inline now (inline-openmp), else 0.
int snap_poem_runs_openmp_inline(void);

#ifdef __cplusplus
}
#endif

#endif
