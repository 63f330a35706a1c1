// Tesseract's C API calls that allocate, wrapped so that a C++ exception thrown inside
// Tesseract (std::bad_alloc when memory runs out) ends as a status code in this C++ layer
// instead of unwinding into Swift frames, where it would terminate the process.
//
// Each function runs one C API call inside try/catch and reports how it ended; the call's
// own result goes to an out-parameter, which is set only when the call returned.
#ifndef SNAP_POEM_TESSERACT_SHIM_H
#define SNAP_POEM_TESSERACT_SHIM_H

#include <stdio.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How a guarded call ended.
typedef enum {
    /// The call returned normally; its result is in the out-parameter.
    SNAP_POEM_CALL_RETURNED = 0,
    /// Tesseract threw std::bad_alloc (or std::length_error from a container): out of memory.
    SNAP_POEM_CALL_OUT_OF_MEMORY = 1,
    /// Tesseract threw some other C++ exception.
    SNAP_POEM_CALL_THREW = 2,
} snap_poem_call_status;

/// TessBaseAPICreate.
snap_poem_call_status snap_poem_tess_create(TessBaseAPI **handle);
/// TessBaseAPISetVariable; `*accepted` is its result.
snap_poem_call_status snap_poem_tess_set_variable(TessBaseAPI *handle, const char *name, const char *value,
                                                  int *accepted);
/// TessBaseAPIInit4 with no config files and `set_only_non_debug_params` false.
snap_poem_call_status snap_poem_tess_init4(TessBaseAPI *handle, const char *datapath, const char *language,
                                           TessOcrEngineMode mode, char **names, char **values, size_t count,
                                           int *result);
/// TessBaseAPIInit3.
snap_poem_call_status snap_poem_tess_init3(TessBaseAPI *handle, const char *datapath, const char *language,
                                           int *result);
/// TessBaseAPIGetLoadedLanguagesAsVector (free the result with TessDeleteTextArray).
snap_poem_call_status snap_poem_tess_loaded_languages(const TessBaseAPI *handle, char ***languages);
/// TessBaseAPIPrintVariables.
snap_poem_call_status snap_poem_tess_print_variables(const TessBaseAPI *handle, FILE *file);
/// TessBaseAPISetImage2.
snap_poem_call_status snap_poem_tess_set_image2(TessBaseAPI *handle, struct Pix *pix);
/// TessMonitorCreate.
snap_poem_call_status snap_poem_tess_monitor_create(ETEXT_DESC **monitor);
/// TessBaseAPIRecognize; `*result` is its result (0 on success).
snap_poem_call_status snap_poem_tess_recognize(TessBaseAPI *handle, ETEXT_DESC *monitor, int *result);

/// Marks the calling thread as inside (1) or outside (0) a recognition: while inside, the
/// line images Tesseract keeps in memory as PNGs are kept in Leptonica's uncompressed
/// serialisation instead (see LineImageEncoding.cpp; in effect in every program that links
/// this shim).
/// `snap_poem_tess_recognize` sets it around its call.
void snap_poem_set_recognising(int inside);

/// Makes Leptonica (and Tesseract through it) take image pixels from an allocator that asks
/// the kernel for large buffers' pages at once (see ImageMemory.cpp). Process-wide; call once,
/// before the first image is made.
void snap_poem_use_prefaulted_image_memory(void);

/// Keeps the messages of the image codecs under Leptonica instead of letting them print:
/// installs the handlers of Leptonica and libtiff (process-wide; call once); libpng's and
/// libjpeg's are in effect in every program that links this shim (see CodecMessages.cpp).
/// A damaged image still fails as before.
void snap_poem_quiet_codecs(void);
/// Whether each codec message is also written to standard error as it comes (1), as the
/// libraries themselves would, or only kept (0, the default). Process-wide.
void snap_poem_codec_messages_pass_through(int on);
/// Whether messages pass through (see snap_poem_codec_messages_pass_through).
int snap_poem_codec_messages_pass_through_enabled(void);
/// Forgets the calling thread's kept codec messages.
void snap_poem_codec_messages_clear(void);
/// Names the format the calling thread decodes from now on ("PNG", at most 15 bytes), or
/// none (NULL). While a format is named, messages are kept without libpng's own prefix, and
/// one passed through is printed as the decoder's warning reads ("the PNG decoder said: …").
void snap_poem_codec_messages_decoding(const char *format);
/// How many codec messages the calling thread has kept since the last clear (at most 8).
size_t snap_poem_codec_messages_count(void);
/// The kept message at `index` (at most 240 bytes, no newline), valid until the next clear;
/// NULL past the end.
const char *snap_poem_codec_message(size_t index);
/// How many more messages came than were kept.
size_t snap_poem_codec_messages_dropped(void);

/// Whether the calling thread is inside an LSTM-only initialisation (`snap_poem_tess_init4`
/// with `OEM_LSTM_ONLY` sets it around its call). Tesseract's universal ambiguity table,
/// which only the legacy engine reads, is then not parsed (see UniversalAmbiguities.cpp).
void snap_poem_set_loading_lstm_only(int inside);
/// Whether LSTM-only initialisations skip the universal ambiguity table (1, the default) or
/// load it as Tesseract does (0): for the test that compares the two readings.
void snap_poem_set_skips_universal_ambiguities(int skips);
/// Makes the OpenMP regions that Tesseract starts on the calling thread from now on run
/// inline, without libgomp setting up a team of one for each (see SerialOpenMP.cpp), unless
/// `snap_poem_set_openmp_inline_enabled(0)` is in effect. Regions on other threads still go
/// to libgomp.
void snap_poem_run_openmp_inline(void);
/// 1 when the calling thread's OpenMP regions run inline, else 0.
int snap_poem_runs_openmp_inline(void);
/// Whether `snap_poem_run_openmp_inline` makes regions run inline (1, the default) or leaves
/// them to libgomp (0): for the test that compares the two readings.
void snap_poem_set_openmp_inline_enabled(int enabled);
/// Leptonica's own pixErodeBrick, pixDilateBrick, pixOpenBrick or pixCloseBrick (`kind` 0–3)
/// of `pixs` into a new Pix, past this shim's definitions of the four, which compute the same
/// words in fewer passes (see BrickMorphology.cpp): for the test that compares them. Null
/// where Leptonica returns null.
struct Pix *snap_poem_leptonica_brick(int kind, struct Pix *pixs, int hsize, int vsize);
/// TessBaseAPIGetUTF8Text (free with TessDeleteText).
snap_poem_call_status snap_poem_tess_utf8_text(TessBaseAPI *handle, char **text);
/// TessBaseAPIGetHOCRText, TessBaseAPIGetTsvText or TessBaseAPIGetAltoText for `kind` 0, 1
/// or 2 (free with TessDeleteText).
snap_poem_call_status snap_poem_tess_rendering(TessBaseAPI *handle, int kind, char **text);
/// TessBaseAPIMeanTextConf.
snap_poem_call_status snap_poem_tess_mean_text_conf(TessBaseAPI *handle, int *confidence);
/// TessBaseAPIGetIterator (free with TessResultIteratorDelete).
snap_poem_call_status snap_poem_tess_iterator(TessBaseAPI *handle, TessResultIterator **iterator);
/// TessResultIteratorGetUTF8Text (free with TessDeleteText).
snap_poem_call_status snap_poem_tess_iterator_text(const TessResultIterator *iterator, TessPageIteratorLevel level,
                                                   char **text);
/// TessResultIteratorNext; `*more` is its result.
snap_poem_call_status snap_poem_tess_iterator_next(TessResultIterator *iterator, TessPageIteratorLevel level,
                                                   int *more);
/// TessBaseAPIAnalyseLayout (free the result with TessPageIteratorDelete); NULL when no layout.
snap_poem_call_status snap_poem_tess_analyse_layout(TessBaseAPI *handle, TessPageIterator **iterator);
/// TessBaseAPISetRectangle.
snap_poem_call_status snap_poem_tess_set_rectangle(TessBaseAPI *handle, int left, int top, int width, int height);
/// TessBaseAPIDetectOrientationScript; `*result` is its result (true on success).
snap_poem_call_status snap_poem_tess_detect_orientation(TessBaseAPI *handle, int *degrees, float *confidence,
                                                        const char **script, float *script_confidence, int *result);

#ifdef __cplusplus
}
#endif

#endif
