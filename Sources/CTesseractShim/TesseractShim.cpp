// See TesseractShim.h. Nothing here may let an exception escape: every entry point is
// noexcept and funnels its one call through `guarded`.
#include "TesseractShim.h"

#include <new>
#include <stdexcept>

namespace {

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
    const bool lstmOnly = mode == tesseract::OEM_LSTM_ONLY;
    snap_poem_set_loading_lstm_only(lstmOnly);
    snap_poem_call_status status = initialise();
    snap_poem_set_loading_lstm_only(0);
    // A model without an LSTM part makes Tesseract fall back to its legacy engine, which
    // reads the ambiguity table skipped above: initialise again, with it.
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
    snap_poem_set_recognising(1);
    auto status = guarded([&] { *result = TessBaseAPIRecognize(handle, monitor); });
    snap_poem_set_recognising(0);
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
