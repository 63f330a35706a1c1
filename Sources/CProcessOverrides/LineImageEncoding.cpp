// The line-images override (ProcessOverrides.h).
//
// Tesseract keeps each text line it recognises as an image file in memory
// (ImageData::SetPixInternal writes it with pixWriteMem as a PNG; the LSTM reads it back with
// pixReadMem a moment later, which recognises the format from the bytes). Writing and reading
// those PNGs was pure cost: deflating them at zlib's default level was 7 % of the process's
// CPU on a 300-dpi page, and even stored without deflate, libpng's filtering, CRCs and Adler
// sums took another 2.4 % of the instructions of reading Lenore.png. Nothing in Tesseract's
// or Leptonica's API changes the format, so this file defines Leptonica's pixWriteMemPng
// itself, in the snap-poem executable only (Package.swift exports it), so liblept's own call
// through its PLT lands here. While the calling thread is inside a recognition (the SnapPoem
// library's `recognising` hook) and the override is on, the definition here
// writes Leptonica's own uncompressed serialisation instead (pixWriteMemSpix: a header and
// the raster, which pixReadMem reads back bit for bit, so the text is unchanged); every other
// call (snap-poem's own PNG exports) is handed on to Leptonica's definition.
#include "OverrideState.h"

#include <dlfcn.h>

namespace {

thread_local bool recognising = false;

using PNGWriter = l_ok (*)(l_uint8 **, size_t *, PIX *, l_float32);

PNGWriter leptonicaWriter() noexcept {
    static const PNGWriter writer = reinterpret_cast<PNGWriter>(dlsym(RTLD_NEXT, "pixWriteMemPng"));
    return writer;
}

}  // namespace

void snap_poem::lineImagesRecognising(int inside) { recognising = inside != 0; }

extern "C" {

__attribute__((visibility("default"))) l_ok pixWriteMemPng(
    l_uint8 **filedata, size_t *filesize, PIX *pix, l_float32 gamma) {
    PNGWriter writer = leptonicaWriter();
    // No next definition: this one was bound by something other than the dynamic linker's
    // interposition (it cannot happen with liblept loaded); fail the way Leptonica fails.
    if (writer == nullptr || writer == &pixWriteMemPng) return 1;
    if (recognising && pix != nullptr && snap_poem::isOn(SNAP_POEM_OVERRIDE_LINE_IMAGES)) return pixWriteMemSpix(filedata, filesize, pix);
    return writer(filedata, filesize, pix, gamma);
}

}  // extern "C"
