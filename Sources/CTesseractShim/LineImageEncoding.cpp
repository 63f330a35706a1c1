// See snap_poem_set_recognising in TesseractShim.h.
//
// Tesseract keeps each text line it recognises as a PNG in memory (ImageData::SetPixInternal
// writes it with pixWriteMem; the LSTM reads it back with pixReadMem a moment later). Leptonica
// writes those PNGs with zlib's default level 6 unless the Pix's `special` field asks for
// another, and Tesseract's line images never ask: on a 300-dpi page, deflating them was 7 %
// of the process's CPU. Nothing in Tesseract's or Leptonica's API changes that level, so
// this file defines Leptonica's pixWriteMemPng itself. The linker puts a definition that a
// linked shared library also defines into the executable's dynamic symbol table (gold and bfd
// alike; Package.swift asks for it explicitly for snap-poem too), so liblept's own call
// through its PLT lands here in every program that links CTesseractShim. The definition here
// asks for level 0 (stored, no deflate; PNG stays lossless, so the text is unchanged) while
// the calling thread is inside a recognition, and hands every call on to Leptonica's
// definition. Outside a recognition (snap-poem's own PNG exports), nothing changes.
#include "TesseractShim.h"

#include <dlfcn.h>

namespace {

thread_local bool recognising = false;

using PNGWriter = l_ok (*)(l_uint8 **, size_t *, PIX *, l_float32);

PNGWriter leptonicaWriter() noexcept {
    static const PNGWriter writer = reinterpret_cast<PNGWriter>(dlsym(RTLD_NEXT, "pixWriteMemPng"));
    return writer;
}

}  // namespace

extern "C" {

void snap_poem_set_recognising(int inside) { recognising = inside != 0; }

__attribute__((visibility("default"))) l_ok pixWriteMemPng(
    l_uint8 **filedata, size_t *filesize, PIX *pix, l_float32 gamma) {
    PNGWriter writer = leptonicaWriter();
    // No next definition: this one was bound by something other than the dynamic linker's
    // interposition (it cannot happen with liblept loaded); fail the way Leptonica fails.
    if (writer == nullptr || writer == &pixWriteMemPng) return 1;
    // Leptonica's convention: `special` 10 + k asks for zlib level k.
    if (recognising && pix != nullptr) pixSetSpecial(pix, 10);
    return writer(filedata, filesize, pix, gamma);
}

}  // extern "C"
