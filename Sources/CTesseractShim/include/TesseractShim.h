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

/// What a program's own replacements of library functions need to know of what the SnapPoem
/// library is doing: the snap-poem executable's (Sources/CProcessOverrides) install them
/// before anything else runs. Every member may be NULL. A program that installs none (any
/// other program importing SnapPoem) gets Tesseract's, Leptonica's and the codecs' own
/// behaviour, and the library calls nothing here.
typedef struct snap_poem_process_hooks {
    /// With 1 before and 0 after `snap_poem_tess_recognize`'s TessBaseAPIRecognize, on its thread.
    void (*recognising)(int inside);
    /// With 1 before and 0 after an LSTM-only `snap_poem_tess_init4`, on its thread.
    void (*loading_lstm_only)(int inside);
    /// With 1 before and 0 after the library runs Tesseract on the calling thread
    /// (`LibrarySetup.runningTesseract`).
    void (*running_tesseract)(int inside);
    /// The image format the calling thread decodes from now on ("PNG", at most 15 bytes),
    /// which forgets the thread's kept codec messages; NULL when it is done.
    void (*decoding)(const char *format);
    /// How many codec messages the calling thread kept while decoding (at most 8).
    size_t (*codec_message_count)(void);
    /// The kept message at `index` (at most 240 bytes), valid until the next `decoding`.
    const char *(*codec_message)(size_t index);
    /// How many more messages came than were kept.
    size_t (*codec_messages_dropped)(void);
    /// From now on, every codec message is also written to standard error as it comes, in
    /// the decoder's words ("the PNG decoder said: …"): for batch workers.
    void (*pass_codec_messages_through)(void);
    /// 1 once `pass_codec_messages_through` was called.
    int (*codec_messages_pass_through)(void);
} snap_poem_process_hooks;

/// Installs `hooks` (copied) for the rest of the process. Call once, before the library runs.
void snap_poem_install_process_hooks(const snap_poem_process_hooks *hooks);
/// 1 when hooks are installed.
int snap_poem_process_hooks_installed(void);
/// Calls the installed `recognising` hook, if any (`snap_poem_tess_recognize` calls it itself).
void snap_poem_hook_recognising(int inside);
/// Calls the installed `running_tesseract` hook, if any.
void snap_poem_hook_running_tesseract(int inside);
/// Calls the installed `decoding` hook, if any.
void snap_poem_hook_decoding(const char *format);
/// The installed `codec_message_count`, or 0.
size_t snap_poem_hook_codec_message_count(void);
/// The installed `codec_message`, or NULL.
const char *snap_poem_hook_codec_message(size_t index);
/// The installed `codec_messages_dropped`, or 0.
size_t snap_poem_hook_codec_messages_dropped(void);
/// Calls the installed `pass_codec_messages_through` hook, if any.
void snap_poem_hook_pass_codec_messages_through(void);
/// The installed `codec_messages_pass_through`, or 0.
int snap_poem_hook_codec_messages_pass_through(void);
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

/// The median of each pixel's 5×5 neighbourhood (the image's edge repeated outwards) of an
/// 8-bit Leptonica image's `source` words into `destination` (the same size and words per
/// line, `wpl`): 0, or -1 for bad arguments or no memory. See Median.cpp.
int snap_poem_median5(const l_uint32 *source, l_uint32 *destination, int width, int height, int wpl);

#ifdef __cplusplus
}
#endif

#endif
