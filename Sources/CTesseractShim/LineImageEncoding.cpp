// See snap_poem_set_recognising in TesseractShim.h.
//
// Tesseract keeps each text line it recognises as an image file in memory
// (ImageData::SetPixInternal writes it with pixWriteMem as a PNG; the LSTM reads it back with
// pixReadMem a moment later, which recognises the format from the bytes). Writing and reading
// those PNGs was pure cost: deflating them at zlib's default level was 7 % of the process's
// CPU on a 300-dpi page, and even stored without deflate, libpng's filtering, CRCs and Adler
// sums took another 2.4 % of the instructions of reading Lenore.png. Nothing in Tesseract's
// or Leptonica's API changes the format, so this file defines Leptonica's pixWriteMemPng
// itself. The linker puts a definition that a linked shared library also defines into the
// executable's dynamic symbol table (gold and bfd alike; Package.swift asks for it explicitly
// for snap-poem too), so liblept's own call through its PLT lands here in every program that
// links CTesseractShim. While the calling thread is inside a recognition, the definition here
// writes Leptonica's own uncompressed serialisation instead (pixWriteMemSpix: a header and
// the raster, which pixReadMem reads back bit for bit, so the text is unchanged); every other
// call (snap-poem's own PNG exports) is handed on to Leptonica's definition.
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
    if (recognising && pix != nullptr) return pixWriteMemSpix(filedata, filesize, pix);
    return writer(filedata, filesize, pix, gamma);
}

}  // extern "C"
