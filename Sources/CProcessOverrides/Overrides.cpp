// See ProcessOverrides.h: which overrides there are, the switch, the binding check, and the
// hooks through which the SnapPoem library tells them what it is doing.
#include "OverrideState.h"
#include "TesseractShim.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>

namespace snap_poem {
std::atomic<bool> overrideOn[SNAP_POEM_OVERRIDE_COUNT];
}  // namespace snap_poem

namespace {

struct Override {
    const char *name;
    /// The functions it defines, as the dynamic linker names them.
    const char *symbols[6];
    /// The same, as people read them.
    const char *functions;
};

const Override overrides[SNAP_POEM_OVERRIDE_COUNT] = {
    {"line-images", {"pixWriteMemPng"}, "pixWriteMemPng"},
    {"universal-ambiguities",
     {"_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"},
     "tesseract::UnicharAmbigs::LoadUniversal"},
    {"inline-openmp",
     {"GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
      "omp_get_thread_num", "omp_get_num_threads"},
     "GOMP_parallel, GOMP_parallel_sections, GOMP_sections_next, GOMP_sections_end_nowait, omp_get_thread_num, "
     "omp_get_num_threads"},
    {"brick-morphology",
     {"pixErodeBrick", "pixDilateBrick", "pixOpenBrick", "pixCloseBrick"},
     "pixErodeBrick, pixDilateBrick, pixOpenBrick, pixCloseBrick"},
    {"codec-messages",
     {"png_create_read_struct", "png_create_write_struct", "jpeg_std_error"},
     "png_create_read_struct, png_create_write_struct, jpeg_std_error"},
    {"image-memory", {}, ""},
};

std::atomic<int> states[SNAP_POEM_OVERRIDE_COUNT];

/// Whether the dynamic linker binds every function of `entry` to this program's definition:
/// the first definition in the global scope is not the one after this program's (RTLD_NEXT,
/// the library's own, which must exist too: the override hands calls on to it). Where the
/// program does not export its definition (a program linked without --export-dynamic-symbol),
/// or the library is not loaded, the override stays off.
bool isBound(const Override &entry) noexcept {
    for (const char *symbol : entry.symbols) {
        if (symbol == nullptr) break;
        void *first = dlsym(RTLD_DEFAULT, symbol);
        void *library = dlsym(RTLD_NEXT, symbol);
        if (first == nullptr || library == nullptr || first == library) return false;
    }
    return true;
}

/// Whether SNAP_POEM_NO_OVERRIDES ("all", or names separated by commas) names `name`.
bool switchedOff(const char *name) noexcept {
    const char *value = std::getenv("SNAP_POEM_NO_OVERRIDES");
    if (value == nullptr) return false;
    std::string list(value);
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        std::string item = list.substr(start, end - start);
        while (!item.empty() && item.front() == ' ') item.erase(item.begin());
        while (!item.empty() && item.back() == ' ') item.pop_back();
        if (item == "all" || item == name) return true;
        start = end + 1;
    }
    return false;
}

const snap_poem_process_hooks hooks = {
    snap_poem::lineImagesRecognising,     snap_poem::universalAmbiguitiesLoading, snap_poem::openMPRunningTesseract,
    snap_poem::codecMessagesDecoding,     snap_poem::codecMessageCount,           snap_poem::codecMessage,
    snap_poem::codecMessagesDropped,      snap_poem::codecMessagesPassThrough,    snap_poem::codecMessagesPassingThrough,
};

}  // namespace

extern "C" {

void snap_poem_overrides_install(void) {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int index = 0; index < SNAP_POEM_OVERRIDE_COUNT; ++index) {
            const Override &entry = overrides[index];
            int state = SNAP_POEM_OVERRIDE_IN_EFFECT;
            if (switchedOff(entry.name))
                state = SNAP_POEM_OVERRIDE_SWITCHED_OFF;
            else if (!isBound(entry))
                state = SNAP_POEM_OVERRIDE_NOT_BOUND;
            states[index].store(state);
            snap_poem::overrideOn[index].store(state == SNAP_POEM_OVERRIDE_IN_EFFECT);
        }
        if (snap_poem::isOn(SNAP_POEM_OVERRIDE_CODEC_MESSAGES)) snap_poem::installCodecHandlers();
        if (snap_poem::isOn(SNAP_POEM_OVERRIDE_IMAGE_MEMORY)) snap_poem::installImageMemory();
        snap_poem_install_process_hooks(&hooks);
    });
}

const char *snap_poem_override_name(int override) {
    return override >= 0 && override < SNAP_POEM_OVERRIDE_COUNT ? overrides[override].name : nullptr;
}

const char *snap_poem_override_functions(int override) {
    return override >= 0 && override < SNAP_POEM_OVERRIDE_COUNT ? overrides[override].functions : nullptr;
}

int snap_poem_override_state_of(int override) {
    return override >= 0 && override < SNAP_POEM_OVERRIDE_COUNT ? states[override].load() : SNAP_POEM_OVERRIDE_NOT_INSTALLED;
}

int snap_poem_override_set_enabled(int override, int enabled) {
    if (override < 0 || override >= SNAP_POEM_OVERRIDE_COUNT) return SNAP_POEM_OVERRIDE_NOT_INSTALLED;
    int state = states[override].load();
    // The codec handlers and the allocator are installed once, at `snap_poem_overrides_install`.
    if (override >= SNAP_POEM_OVERRIDE_CODEC_MESSAGES) return state;
    if (state == SNAP_POEM_OVERRIDE_IN_EFFECT || state == SNAP_POEM_OVERRIDE_SWITCHED_OFF) {
        if (enabled && !isBound(overrides[override])) return state;
        state = enabled ? SNAP_POEM_OVERRIDE_IN_EFFECT : SNAP_POEM_OVERRIDE_SWITCHED_OFF;
        states[override].store(state);
        snap_poem::overrideOn[override].store(enabled != 0);
    }
    return state;
}

}  // extern "C"
