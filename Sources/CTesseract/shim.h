// The C surface snap-poem uses: Tesseract's C API and Leptonica, in one module so that
// `Pix` is a single complete type, and one system call glibc hides from Swift.
#ifndef SNAP_POEM_CTESSERACT_SHIM_H
#define SNAP_POEM_CTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Renames `from` (in the folder open as `from_folder`) to `to` (in `to_folder`) unless `to`
/// exists (Linux renameat2 with RENAME_NOREPLACE), for OutputFile's no-clobber writes; a
/// folder of AT_FDCWD takes the path as it is. glibc declares renameat2 only under
/// _GNU_SOURCE, which Swift's Glibc module does not set, so the system call is made
/// directly. Returns 0, or -1 with errno set (EEXIST, or EINVAL where the file system lacks
/// the flag).
static inline int snap_poem_renameat_noreplace(int from_folder, const char *from, int to_folder, const char *to) {
    return (int)syscall(SYS_renameat2, from_folder, from, to_folder, to, 1u /* RENAME_NOREPLACE */);
}

#endif
