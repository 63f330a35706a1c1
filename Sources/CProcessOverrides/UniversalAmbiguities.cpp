// The universal-ambiguities override (ProcessOverrides.h).
//
// Every language Tesseract loads parses its built-in "universal ambiguities" (a table of
// some thousand confusable letter groups, `kUniversalAmbigsFile`) in
// Tesseract::init_tesseract_lang_data, whatever the engine mode, and inserts each entry into
// a sorted linked list: `perf record` of one snap-poem run on a clean poem put that parse
// (ELIST_ITERATOR::forward, ELIST::add_sorted_and_find, AmbigSpec::compare_ambig_specs) at
// over a fifth of the process's CPU samples, about 50 ms a language. The table is read only
// by the legacy engine (its adaptive classifier and the LanguageModel's dangerous-ambiguity
// check); an engine initialised LSTM-only loads neither (init_tesseract_internal skips the
// classifier and the legacy dictionary) and never reads it.
//
// So this file defines tesseract::UnicharAmbigs::LoadUniversal itself, in the snap-poem
// executable only (Package.swift exports it), so libtesseract's own call through its PLT
// lands here. While the calling thread is inside an LSTM-only initialisation (the SnapPoem
// library's `loading_lstm_only` hook) and the override is on, the definition here leaves the
// table empty, as Tesseract itself does when the built-in text cannot be opened; every other
// call (the legacy or combined modes, orientation detection) goes on to Tesseract's
// definition. A libtesseract linked with -Bsymbolic-functions would call its own directly;
// then nothing here runs and nothing changes.
#include "OverrideState.h"

#include <atomic>
#include <cstdio>
#include <dlfcn.h>

// Only the names, as libtesseract's ABI spells them (these headers are not installed):
// `void tesseract::UnicharAmbigs::LoadUniversal(const UNICHARSET &, UNICHARSET *)`.
namespace tesseract {
class UNICHARSET;
class UnicharAmbigs {
public:
    void LoadUniversal(const UNICHARSET &encoder_set, UNICHARSET *unicharset);
};
}  // namespace tesseract

namespace {

thread_local bool loadingLSTMOnly = false;

// A member function is called with the object as its first argument (Itanium C++ ABI).
using UniversalLoader = void (*)(tesseract::UnicharAmbigs *, const tesseract::UNICHARSET &, tesseract::UNICHARSET *);

constexpr const char *loaderSymbol = "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_";

UniversalLoader tesseractLoader() noexcept {
    static const UniversalLoader loader = reinterpret_cast<UniversalLoader>(dlsym(RTLD_NEXT, loaderSymbol));
    return loader;
}

}  // namespace

void snap_poem::universalAmbiguitiesLoading(int inside) { loadingLSTMOnly = inside != 0; }

__attribute__((visibility("default"))) void tesseract::UnicharAmbigs::LoadUniversal(
    const UNICHARSET &encoder_set, UNICHARSET *unicharset) {
    if (loadingLSTMOnly && snap_poem::isOn(SNAP_POEM_OVERRIDE_UNIVERSAL_AMBIGUITIES)) return;
    UniversalLoader loader = tesseractLoader();
    if (loader == nullptr) {
        // No next definition, which cannot happen while libtesseract is loaded (it called
        // this). Say so rather than run a legacy engine without its table in silence.
        std::fputs("snap-poem: warning: Tesseract's universal ambiguity table could not be loaded\n", stderr);
        return;
    }
    loader(this, encoder_set, unicharset);
}
