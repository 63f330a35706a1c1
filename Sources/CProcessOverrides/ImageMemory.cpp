// The image-memory override (ProcessOverrides.h): not a function of another library's, but
// Leptonica's process-wide allocator, so the executable alone sets it.
//
// Every image Leptonica and Tesseract create gets its pixels from one allocator
// (setPixMemoryManager, process-wide). glibc serves a large allocation from fresh anonymous
// pages, and Leptonica's first access to a new image is often a read (pixSetPadBits reads
// each row's last word before it masks it): the kernel maps the shared zero page, and the
// write a moment later faults again to copy it, which flushes that page from the TLB of every
// core the process runs on, an inter-processor interrupt each time. On a 300-dpi page
// enlarged to 17 megapixels those faults were about 8 % of the process's CPU (perf), and the
// process spent 0.36 s in the kernel; 0.16 s with this allocator.
//
// The allocator here asks the kernel to fill large allocations with writable pages at once
// (MADV_POPULATE_WRITE, Linux 5.14): one system call instead of two faults and a shootdown per
// page. The pages are the ones the image is about to use anyway, so no more memory is
// committed than before. The allocation itself is still malloc's and is freed with free, so
// pixel buffers made before the switch, or by code that hands Leptonica its own malloc'd
// buffer, are freed correctly. Where the kernel lacks the advice, madvise fails and nothing
// changes.
#include "OverrideState.h"

#include <cstdint>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace {

/// Below this, malloc serves from memory the process already touched: nothing to gain.
constexpr size_t prefaultedFrom = size_t(1) << 20;

void *imageMemory(size_t size) noexcept {
    void *block = std::malloc(size);
    if (block == nullptr || size < prefaultedFrom) return block;
    static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096);
    const uintptr_t start = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(block) + size) & ~(page - 1);
    if (end > start) (void)madvise(reinterpret_cast<void *>(start), end - start, MADV_POPULATE_WRITE);
    return block;
}

void releaseImageMemory(void *block) noexcept { std::free(block); }

}  // namespace

void snap_poem::installImageMemory(void) { setPixMemoryManager(imageMemory, releaseImageMemory); }
