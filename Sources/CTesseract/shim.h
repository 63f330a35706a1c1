// The C surface snap-poem uses: Tesseract's C API and Leptonica, in one module so that
// `Pix` is a single complete type.
#ifndef SNAP_POEM_CTESSERACT_SHIM_H
#define SNAP_POEM_CTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#endif
