// The codec-messages override (ProcessOverrides.h).
//
// Leptonica decodes images with libpng, libjpeg and libtiff, and each of them writes its own
// messages to the process's standard error: "libpng error: read error in memio_png_read_data"
// for a PNG cut short, "Premature end of JPEG file" for a JPEG, libtiff's "module: message"
// lines, and Leptonica's own memory-stream complaints ("Bad file: amount too big"), which
// setMsgSeverity does not reach. Printed by the libraries, such a line came before snap-poem's
// one line naming the file, untagged, past `--quiet`, and into the service's log.
//
// Leptonica creates its libpng and libjpeg state without handlers of its own, so the
// libraries fall back to their defaults, which print. This file defines the functions that
// create that state (png_create_read_struct, png_create_write_struct, jpeg_std_error), in the
// snap-poem executable only (Package.swift exports them), the way LineImageEncoding.cpp
// defines pixWriteMemPng: liblept's calls through its PLT land here, and each hands on to the
// library's own definition (dlsym RTLD_NEXT). While the calling thread decodes an image for
// the SnapPoem library (its `decoding` hook names the format) and the override is on, they
// pass handlers that keep the message instead of printing it; every other call gets the
// library's defaults, which print as before. The error handlers still end the call as the defaults
// do (libpng's longjmp back to Leptonica's setjmp; libjpeg's error_exit is Leptonica's own),
// so a damaged image fails exactly as before. Handlers a caller passes itself are kept.
//
// A message is kept for the thread that decodes (at most kKeptMessages of kMessageBytes each,
// the rest counted), and the decoder turns what it kept into warnings that name the file.
// A batch worker also passes each message on to its standard error as it comes, as the
// libraries did: its supervisor ties that stream to the image in flight, which still names
// what a decoder said when the worker is stopped in the middle of a decompression bomb.
#include "OverrideState.h"

#include <atomic>
#include <dlfcn.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

#include <string>
#include <vector>

namespace {

constexpr size_t kKeptMessages = 8;
constexpr size_t kMessageBytes = 240;

thread_local std::vector<std::string> kept;
thread_local size_t dropped = 0;
// The format the calling thread is decoding ("PNG"), empty when it is not decoding.
thread_local char decoder[16] = "";
std::atomic<bool> passesThrough{false};

// `text` without libpng's own prefix while a decoder is named: the decoder's warning names
// the library ("the PNG decoder said: tEXt: CRC error"). As the library wrote it otherwise.
const char *inDecoderWords(const char *text) noexcept {
    if (decoder[0] == '\0') return text;
    for (const char *prefix : {"libpng warning: ", "libpng error: "}) {
        size_t length = strlen(prefix);
        if (strncmp(text, prefix, length) == 0) return text + length;
    }
    return text;
}

// Keeps `text` (a line without its newline) for the calling thread, and prints it when
// messages pass through: while a decoder is named, in the words of the decoder's warnings,
// otherwise as the library printed it. Never throws: it runs inside C callbacks, out of
// memory included.
void note(const char *text) noexcept {
    if (text == nullptr) return;
    text = inDecoderWords(text);
    if (passesThrough.load(std::memory_order_relaxed)) {
        if (decoder[0] == '\0')
            fprintf(stderr, "%s\n", text);
        else
            fprintf(stderr, "the %s decoder said: %s\n", decoder, text);
    }
    if (kept.size() >= kKeptMessages) {
        ++dropped;
        return;
    }
    try {
        size_t length = strnlen(text, kMessageBytes);
        while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r')) --length;
        kept.emplace_back(text, length);
    } catch (...) {
        ++dropped;
    }
}

void notef(const char *format, ...) noexcept {
    char line[kMessageBytes + 1];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    note(line);
}

template <typename Function>
Function next(const char *name) noexcept {
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

// libpng: an error must not return (png_error would print and jump itself): jump back to
// the caller's setjmp as the default handler does, after keeping its words.
[[noreturn]] void keptPNGError(png_structp png, png_const_charp message) {
    notef("libpng error: %s", message != nullptr ? message : "");
    using Jump = void (*)(png_const_structrp, int);
    static const Jump jump = reinterpret_cast<Jump>(dlsym(RTLD_DEFAULT, "png_longjmp"));
    if (jump != nullptr) jump(png, 1);
    abort();  // png_longjmp does not return; without a jump buffer it aborts itself
}

void keptPNGWarning(png_structp, png_const_charp message) {
    notef("libpng warning: %s", message != nullptr ? message : "");
}

// libjpeg: warnings and trace messages ("Premature end of JPEG file", "Corrupt JPEG data")
// go through output_message; errors go through error_exit, which Leptonica replaces (and
// which formats its own text without printing it).
void keptJPEGMessage(j_common_ptr info) {
    char line[JMSG_LENGTH_MAX];
    info->err->format_message(info, line);
    note(line);
}

void keptTIFFMessage(const char *module, const char *format, va_list arguments) {
    char text[kMessageBytes + 1];
    vsnprintf(text, sizeof text, format, arguments);
    if (module != nullptr)
        notef("%s: %s", module, text);
    else
        note(text);
}

void keptLeptonicaMessage(const char *text) { note(text); }

using PNGCreate = png_structp (*)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);
using JPEGStandardError = struct jpeg_error_mgr *(*)(struct jpeg_error_mgr *);
using TIFFHandler = void (*)(const char *, const char *, va_list);

/// Whether the calling thread's codec state gets the handlers here: it decodes for the
/// SnapPoem library, and the override is on.
bool keepsMessages() noexcept { return decoder[0] != '\0' && snap_poem::isOn(SNAP_POEM_OVERRIDE_CODEC_MESSAGES); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) png_structp png_create_read_struct(
    png_const_charp version, png_voidp errorContext, png_error_ptr error, png_error_ptr warning) {
    static const PNGCreate create = next<PNGCreate>("png_create_read_struct");
    if (create == nullptr || create == &png_create_read_struct) return nullptr;
    if (!keepsMessages()) return create(version, errorContext, error, warning);
    return create(version, errorContext, error ? error : keptPNGError, warning ? warning : keptPNGWarning);
}

__attribute__((visibility("default"))) png_structp png_create_write_struct(
    png_const_charp version, png_voidp errorContext, png_error_ptr error, png_error_ptr warning) {
    static const PNGCreate create = next<PNGCreate>("png_create_write_struct");
    if (create == nullptr || create == &png_create_write_struct) return nullptr;
    if (!keepsMessages()) return create(version, errorContext, error, warning);
    return create(version, errorContext, error ? error : keptPNGError, warning ? warning : keptPNGWarning);
}

__attribute__((visibility("default"))) struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *manager) {
    static const JPEGStandardError standard = next<JPEGStandardError>("jpeg_std_error");
    if (standard == nullptr || standard == &jpeg_std_error) return manager;
    struct jpeg_error_mgr *result = standard(manager);
    if (result != nullptr && keepsMessages()) result->output_message = keptJPEGMessage;
    return result;
}

}  // extern "C"

void snap_poem::installCodecHandlers(void) {
    leptSetStderrHandler(keptLeptonicaMessage);
    // libtiff prints through handlers of its own. Looked up by name so that snap-poem does
    // not link libtiff for two calls (Leptonica has it loaded).
    using SetHandler = TIFFHandler (*)(TIFFHandler);
    if (auto setError = reinterpret_cast<SetHandler>(dlsym(RTLD_DEFAULT, "TIFFSetErrorHandler"))) setError(keptTIFFMessage);
    if (auto setWarning = reinterpret_cast<SetHandler>(dlsym(RTLD_DEFAULT, "TIFFSetWarningHandler")))
        setWarning(keptTIFFMessage);
}

void snap_poem::codecMessagesPassThrough(void) { passesThrough.store(true, std::memory_order_relaxed); }

int snap_poem::codecMessagesPassingThrough(void) { return passesThrough.load(std::memory_order_relaxed) ? 1 : 0; }

void snap_poem::codecMessagesDecoding(const char *format) {
    if (format == nullptr) {
        decoder[0] = '\0';
        return;
    }
    kept.clear();
    dropped = 0;
    snprintf(decoder, sizeof decoder, "%s", format);
}

size_t snap_poem::codecMessageCount(void) { return kept.size(); }

const char *snap_poem::codecMessage(size_t index) { return index < kept.size() ? kept[index].c_str() : nullptr; }

size_t snap_poem::codecMessagesDropped(void) { return dropped; }
