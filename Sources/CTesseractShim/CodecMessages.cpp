// See snap_poem_quiet_codecs in TesseractShim.h.
//
// Leptonica decodes images with libpng, libjpeg and libtiff, and each of them writes its own
// messages to the process's standard error: "libpng error: read error in memio_png_read_data"
// for a PNG cut short, "Premature end of JPEG file" for a JPEG, libtiff's "module: message"
// lines, and Leptonica's own memory-stream complaints ("Bad file: amount too big"), which
// setMsgSeverity does not reach. snap-poem reports every image it cannot decode in one line
// of its own that names the file, so these lines only doubled the error on the command line
// and, in `snap-poem serve`, put text an upload chose the moment of into the server's log.
//
// Leptonica creates its libpng and libjpeg state without handlers of its own, so the
// libraries fall back to their defaults, which print. This file defines the two functions
// that create that state (png_create_read_struct, png_create_write_struct, jpeg_std_error),
// the way LineImageEncoding.cpp defines pixWriteMemPng: liblept's calls through its PLT land
// here, and each hands on to the library's own definition (dlsym RTLD_NEXT) with handlers
// that print nothing. The error handlers still end the call as the defaults do (libpng's
// longjmp back to Leptonica's setjmp; libjpeg's error_exit is Leptonica's own), so a damaged
// image still fails, and fails the same way; only the printing is gone. Handlers a caller
// passes itself are kept.
#include "TesseractShim.h"

#include <dlfcn.h>
#include <png.h>
#include <stdio.h>
#include <jpeglib.h>

namespace {

template <typename Function>
Function next(const char *name) noexcept {
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

// libpng: an error must not return (png_error would print and jump itself): jump back to
// the caller's setjmp as the default handler does, without its fprintf.
[[noreturn]] void quietPNGError(png_structp png, png_const_charp) {
    using Jump = void (*)(png_const_structrp, int);
    static const Jump jump = reinterpret_cast<Jump>(dlsym(RTLD_DEFAULT, "png_longjmp"));
    jump(png, 1);
    abort();  // png_longjmp does not return; without a jump buffer it aborts itself
}

void quietPNGWarning(png_structp, png_const_charp) {}

// libjpeg: warnings and trace messages ("Premature end of JPEG file", "Corrupt JPEG data")
// go through output_message; errors go through error_exit, which Leptonica replaces.
void quietJPEGMessage(j_common_ptr) {}

using PNGCreate = png_structp (*)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);
using JPEGStandardError = struct jpeg_error_mgr *(*)(struct jpeg_error_mgr *);

void quietLeptonica(const char *) {}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) png_structp png_create_read_struct(
    png_const_charp version, png_voidp errorContext, png_error_ptr error, png_error_ptr warning) {
    static const PNGCreate create = next<PNGCreate>("png_create_read_struct");
    if (create == nullptr || create == &png_create_read_struct) return nullptr;
    return create(version, errorContext, error ? error : quietPNGError, warning ? warning : quietPNGWarning);
}

__attribute__((visibility("default"))) png_structp png_create_write_struct(
    png_const_charp version, png_voidp errorContext, png_error_ptr error, png_error_ptr warning) {
    static const PNGCreate create = next<PNGCreate>("png_create_write_struct");
    if (create == nullptr || create == &png_create_write_struct) return nullptr;
    return create(version, errorContext, error ? error : quietPNGError, warning ? warning : quietPNGWarning);
}

__attribute__((visibility("default"))) struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *manager) {
    static const JPEGStandardError standard = next<JPEGStandardError>("jpeg_std_error");
    if (standard == nullptr || standard == &jpeg_std_error) return manager;
    struct jpeg_error_mgr *result = standard(manager);
    if (result != nullptr) result->output_message = quietJPEGMessage;
    return result;
}

void snap_poem_quiet_codecs(void) {
    leptSetStderrHandler(quietLeptonica);
    // libtiff prints through handlers of its own; null ones print nothing. Looked up by name
    // so that snap-poem does not link libtiff for two calls (liblept has it loaded).
    using SetHandler = void *(*)(void *);
    if (auto setError = reinterpret_cast<SetHandler>(dlsym(RTLD_DEFAULT, "TIFFSetErrorHandler"))) setError(nullptr);
    if (auto setWarning = reinterpret_cast<SetHandler>(dlsym(RTLD_DEFAULT, "TIFFSetWarningHandler"))) setWarning(nullptr);
}

}  // extern "C"
