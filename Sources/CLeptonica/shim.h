// Leptonica's headers are included by CTesseract's shim.h, so that Tesseract's and
// Leptonica's declarations are one module. This module exists for its link flags: SwiftPM
// takes them from pkg-config's `lept` package (`-llept` on Debian 12, `-lleptonica` on
// Debian 13, where Leptonica 1.83 renamed the library), which `tesseract.pc` lists only as
// a private requirement.
#ifndef SNAP_POEM_CLEPTONICA_SHIM_H
#define SNAP_POEM_CLEPTONICA_SHIM_H
#endif
