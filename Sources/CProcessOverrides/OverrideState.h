// What each override's definitions consult on every call: whether the override is on.
// Private to this target.
#ifndef SNAP_POEM_OVERRIDE_STATE_H
#define SNAP_POEM_OVERRIDE_STATE_H

#include "ProcessOverrides.h"

#include <atomic>

namespace snap_poem {

/// Whether each override does its work (true) or hands every call on (false, the state
/// before `snap_poem_overrides_install` and for an override switched off).
extern std::atomic<bool> overrideOn[SNAP_POEM_OVERRIDE_COUNT];

/// Whether `override` is on.
inline bool isOn(snap_poem_override override) noexcept {
    return overrideOn[override].load(std::memory_order_relaxed);
}

// The process hooks of each override file (`snap_poem_process_hooks`, TesseractShim.h).
void lineImagesRecognising(int inside);
void universalAmbiguitiesLoading(int inside);
void openMPRunningTesseract(int inside);
void codecMessagesDecoding(const char *format);
size_t codecMessageCount(void);
const char *codecMessage(size_t index);
size_t codecMessagesDropped(void);
void codecMessagesPassThrough(void);
int codecMessagesPassingThrough(void);
/// Installs Leptonica's and libtiff's message handlers (codec-messages), once.
void installCodecHandlers(void);
/// Makes Leptonica allocate images with the prefaulting allocator (image-memory), once.
void installImageMemory(void);

}  // namespace snap_poem

#endif
