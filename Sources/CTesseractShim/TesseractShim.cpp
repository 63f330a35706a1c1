// See TesseractShim.h. Nothing here may let an exception escape: every entry point is
// noexcept and funnels its one call through `guarded`.
#include "TesseractShim.h"

#include <atomic>
#include <new>
#include <stdexcept>

namespace {

/// The installed hooks (`snap_poem_install_process_hooks`), or null: written once, before the
/// library runs, and read on every hooked call.
std::atomic<const snap_poem_process_hooks *> installedHooks{nullptr};

const snap_poem_process_hooks *hooks() noexcept { return installedHooks.load(std::memory_order_acquire); }

template <typename Body>
snap_poem_call_status guarded(Body &&body) noexcept {
    try {
        body();
        return SNAP_POEM_CALL_RETURNED;
    } catch (const std::bad_alloc &) {
        return SNAP_POEM_CALL_OUT_OF_MEMORY;
    } catch (const std::length_error &) {
        return SNAP_POEM_CALL_OUT_OF_MEMORY;
    } catch (...) {
        return SNAP_POEM_CALL_THREW;
    }
}

}  // namespace

extern "C" {

void snap_poem_install_process_hooks(const snap_poem_process_hooks *given) {
    if (given == nullptr) return;
    // Kept for the life of the process: hooked calls may read it from any thread at any time.
    static snap_poem_process_hooks copy;
    if (hooks() != nullptr) return;
    copy = *given;
    installedHooks.store(&copy, std::memory_order_release);
}

int snap_poem_process_hooks_installed(void) { return hooks() != nullptr ? 1 : 0; }

void snap_poem_hook_recognising(int inside) {
    if (auto installed = hooks(); installed != nullptr && installed->recognising != nullptr) installed->recognising(inside);
}

void snap_poem_hook_running_tesseract(int inside) {
    if (auto installed = hooks(); installed != nullptr && installed->running_tesseract != nullptr)
        installed->running_tesseract(inside);
}

void snap_poem_hook_decoding(const char *format) {
    if (auto installed = hooks(); installed != nullptr && installed->decoding != nullptr) installed->decoding(format);
}

size_t snap_poem_hook_codec_message_count(void) {
    auto installed = hooks();
    return installed != nullptr && installed->codec_message_count != nullptr ? installed->codec_message_count() : 0;
}

const char *snap_poem_hook_codec_message(size_t index) {
    auto installed = hooks();
    return installed != nullptr && installed->codec_message != nullptr ? installed->codec_message(index) : nullptr;
}

size_t snap_poem_hook_codec_messages_dropped(void) {
    auto installed = hooks();
    return installed != nullptr && installed->codec_messages_dropped != nullptr ? installed->codec_messages_dropped() : 0;
}

void snap_poem_hook_pass_codec_messages_through(void) {
    if (auto installed = hooks(); installed != nullptr && installed->pass_codec_messages_through != nullptr)
        installed->pass_codec_messages_through();
}

int snap_poem_hook_codec_messages_pass_through(void) {
    auto installed = hooks();
    return installed != nullptr && installed->codec_messages_pass_through != nullptr ? installed->codec_messages_pass_through()
                                                                                     : 0;
}

snap_poem_call_status snap_poem_tess_create(TessBaseAPI **handle) {
    *handle = nullptr;
    return guarded([&] { *handle = TessBaseAPICreate(); });
}

snap_poem_call_status snap_poem_tess_set_variable(TessBaseAPI *handle, const char *name, const char *value,
                                                  int *accepted) {
    *accepted = 0;
    return guarded([&] { *accepted = TessBaseAPISetVariable(handle, name, value); });
}

snap_poem_call_status snap_poem_tess_init4(TessBaseAPI *handle, const char *datapath, const char *language,
                                           TessOcrEngineMode mode, char **names, char **values, size_t count,
                                           int *result) {
    *result = -1;
    const auto initialise = [&] {
        return guarded(
            [&] { *result = TessBaseAPIInit4(handle, datapath, language, mode, nullptr, 0, names, values, count, 0); });
    };
    // The executable's universal-ambiguities override skips a table that only the legacy
    // engine reads, while an LSTM-only initialisation runs (`loading_lstm_only`).
    auto installed = hooks();
    auto loading = installed != nullptr ? installed->loading_lstm_only : nullptr;
    const bool lstmOnly = mode == tesseract::OEM_LSTM_ONLY && loading != nullptr;
    if (lstmOnly) loading(1);
    snap_poem_call_status status = initialise();
    if (lstmOnly) loading(0);
    // A model without an LSTM part makes Tesseract fall back to its legacy engine, which
    // reads the ambiguity table the override skipped: initialise again, with it.
    // (TessBaseAPIOem answers the mode asked for; the variable holds the one in use.)
    int inUse = tesseract::OEM_LSTM_ONLY;
    if (lstmOnly && status == SNAP_POEM_CALL_RETURNED && *result == 0 &&
        TessBaseAPIGetIntVariable(handle, "tessedit_ocr_engine_mode", &inUse) && inUse != tesseract::OEM_LSTM_ONLY) {
        status = initialise();
    }
    return status;
}

snap_poem_call_status snap_poem_tess_init3(TessBaseAPI *handle, const char *datapath, const char *language,
                                           int *result) {
    *result = -1;
    return guarded([&] { *result = TessBaseAPIInit3(handle, datapath, language); });
}

snap_poem_call_status snap_poem_tess_loaded_languages(const TessBaseAPI *handle, char ***languages) {
    *languages = nullptr;
    return guarded([&] { *languages = TessBaseAPIGetLoadedLanguagesAsVector(handle); });
}

snap_poem_call_status snap_poem_tess_print_variables(const TessBaseAPI *handle, FILE *file) {
    return guarded([&] { TessBaseAPIPrintVariables(handle, file); });
}

snap_poem_call_status snap_poem_tess_set_image2(TessBaseAPI *handle, struct Pix *pix) {
    return guarded([&] { TessBaseAPISetImage2(handle, pix); });
}

snap_poem_call_status snap_poem_tess_monitor_create(ETEXT_DESC **monitor) {
    *monitor = nullptr;
    return guarded([&] { *monitor = TessMonitorCreate(); });
}

snap_poem_call_status snap_poem_tess_recognize(TessBaseAPI *handle, ETEXT_DESC *monitor, int *result) {
    *result = -1;
    auto installed = hooks();
    auto recognising = installed != nullptr ? installed->recognising : nullptr;
    if (recognising != nullptr) recognising(1);
    auto status = guarded([&] { *result = TessBaseAPIRecognize(handle, monitor); });
    if (recognising != nullptr) recognising(0);
    return status;
}

snap_poem_call_status snap_poem_tess_utf8_text(TessBaseAPI *handle, char **text) {
    *text = nullptr;
    return guarded([&] { *text = TessBaseAPIGetUTF8Text(handle); });
}

snap_poem_call_status snap_poem_tess_rendering(TessBaseAPI *handle, int kind, char **text) {
    *text = nullptr;
    return guarded([&] {
        switch (kind) {
        case 0: *text = TessBaseAPIGetHOCRText(handle, 0); break;
        case 1: *text = TessBaseAPIGetTsvText(handle, 0); break;
        default: *text = TessBaseAPIGetAltoText(handle, 0); break;
        }
    });
}

snap_poem_call_status snap_poem_tess_mean_text_conf(TessBaseAPI *handle, int *confidence) {
    *confidence = 0;
    return guarded([&] { *confidence = TessBaseAPIMeanTextConf(handle); });
}

snap_poem_call_status snap_poem_tess_iterator(TessBaseAPI *handle, TessResultIterator **iterator) {
    *iterator = nullptr;
    return guarded([&] { *iterator = TessBaseAPIGetIterator(handle); });
}

snap_poem_call_status snap_poem_tess_iterator_text(const TessResultIterator *iterator, TessPageIteratorLevel level,
                                                   char **text) {
    *text = nullptr;
    return guarded([&] { *text = TessResultIteratorGetUTF8Text(iterator, level); });
}

snap_poem_call_status snap_poem_tess_iterator_next(TessResultIterator *iterator, TessPageIteratorLevel level,
                                                   int *more) {
    *more = 0;
    return guarded([&] { *more = TessResultIteratorNext(iterator, level); });
}

snap_poem_call_status snap_poem_tess_analyse_layout(TessBaseAPI *handle, TessPageIterator **iterator) {
    *iterator = nullptr;
    return guarded([&] { *iterator = TessBaseAPIAnalyseLayout(handle); });
}

snap_poem_call_status snap_poem_tess_set_rectangle(TessBaseAPI *handle, int left, int top, int width, int height) {
    return guarded([&] { TessBaseAPISetRectangle(handle, left, top, width, height); });
}

snap_poem_call_status snap_poem_tess_detect_orientation(TessBaseAPI *handle, int *degrees, float *confidence,
                                                        const char **script, float *script_confidence, int *result) {
    *result = 0;
    return guarded([&] {
        *result = TessBaseAPIDetectOrientationScript(handle, degrees, confidence, script, script_confidence);
    });
}

}  // extern "C"
