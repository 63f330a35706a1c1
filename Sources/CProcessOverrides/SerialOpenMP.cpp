// The inline-openmp override (ProcessOverrides.h).
//
// Debian's libtesseract is built with OpenMP: the LSTM's gates are a `parallel sections`
// region at every time step of every line, the fully connected layers and the parallel
// network stacks a `parallel for`. snap-poem never lets those regions start threads (it
// parallelises across lines and images itself; `LibrarySetup.enterTesseract` sets the
// thread's maximum of active levels to 0 for each call, and restores it after), yet libgomp still sets each one up as a
// team of one: a team allocated or reused, work shares initialised, the thread's state
// saved and restored. Measured with these definitions preloaded into the release build
// (2026-12-05, the 36 held-out images as a batch, `--jobs 2`, three rounds alternated):
// 21.2 → 20.6 s of CPU, 11.07 → 10.70 s of wall time, the same text; libgomp was 1.6 % of a
// batch's samples.
//
// So this file defines the six OpenMP entry points libtesseract imports (`objdump -T`:
// GOMP_parallel, GOMP_parallel_sections, GOMP_sections_next, GOMP_sections_end_nowait,
// omp_get_thread_num, omp_get_num_threads), in the snap-poem executable only (Package.swift
// exports them), so libtesseract's calls are bound to them. While a thread runs Tesseract for
// the SnapPoem library (its `running_tesseract` hook, set before and cleared after each
// call) and the override is on, a region is what a team of one would make of
// it: its body runs on the calling thread, with thread number 0 of 1, and a `sections`
// region hands out its sections 1…count in order. Every other call, on any other thread,
// and every query outside a region run here, goes on to libgomp's definition, found with `dlsym(RTLD_NEXT, …)`.
// Where libtesseract binds its calls directly (-Bsymbolic), nothing here runs and libgomp
// does the work as before.
#include "OverrideState.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace {

using RegionBody = void (*)(void *);
using Parallel = void (*)(RegionBody, void *, unsigned, unsigned);
using ParallelSections = void (*)(RegionBody, void *, unsigned, unsigned, unsigned);
using SectionsNext = unsigned (*)();
using SectionsEnd = void (*)();
using ThreadQuery = int (*)();

/// Whether OpenMP regions started on this thread run inline (set while the thread runs
/// Tesseract for the SnapPoem library, and the override is on).
thread_local bool runsInline = false;
/// How many regions run here the calling thread is inside.
thread_local unsigned inlineDepth = 0;
/// The `sections` region run here that the thread is inside: the next section to hand out
/// and the last one; `sectionsDepth` counts such regions.
thread_local unsigned nextSection = 0;
thread_local unsigned lastSection = 0;
thread_local unsigned sectionsDepth = 0;

/// libgomp's definition of `name`. libtesseract needs libgomp, so it is loaded whenever
/// these are called; a missing one is a broken installation, said so before stopping.
void *libgompDefinition(const char *name) noexcept {
    void *definition = dlsym(RTLD_NEXT, name);
    if (definition == nullptr) {
        std::fprintf(stderr, "snap-poem: error: OpenMP's %s was not found (libgomp is not loaded)\n", name);
        std::abort();
    }
    return definition;
}

template <typename Function> Function libgomp(const char *name) noexcept {
    return reinterpret_cast<Function>(libgompDefinition(name));
}

/// Runs `body` as one thread's region, keeping the depth right even if it throws.
struct InlineRegion {
    InlineRegion() noexcept { ++inlineDepth; }
    ~InlineRegion() { --inlineDepth; }
};

}  // namespace

void snap_poem::openMPRunningTesseract(int inside) {
    runsInline = inside != 0 && snap_poem::isOn(SNAP_POEM_OVERRIDE_INLINE_OPENMP);
}

extern "C" int snap_poem_runs_openmp_inline(void) { return runsInline ? 1 : 0; }

extern "C" __attribute__((visibility("default"))) void GOMP_parallel(
    RegionBody body, void *data, unsigned threads, unsigned flags) {
    if (!runsInline) {
        static const Parallel forward = libgomp<Parallel>("GOMP_parallel");
        forward(body, data, threads, flags);
        return;
    }
    InlineRegion region;
    body(data);
}

extern "C" __attribute__((visibility("default"))) void GOMP_parallel_sections(
    RegionBody body, void *data, unsigned threads, unsigned count, unsigned flags) {
    if (!runsInline) {
        static const ParallelSections forward = libgomp<ParallelSections>("GOMP_parallel_sections");
        forward(body, data, threads, count, flags);
        return;
    }
    // The body asks for its sections with GOMP_sections_next, first to last, until 0.
    struct Sections {
        unsigned next = nextSection, last = lastSection;
        Sections(unsigned count) noexcept {
            nextSection = 1;
            lastSection = count;
            ++sectionsDepth;
        }
        ~Sections() {
            --sectionsDepth;
            nextSection = next;
            lastSection = last;
        }
    };
    InlineRegion region;
    Sections sections(count);
    body(data);
}

extern "C" __attribute__((visibility("default"))) unsigned GOMP_sections_next(void) {
    if (sectionsDepth == 0) {
        static const SectionsNext forward = libgomp<SectionsNext>("GOMP_sections_next");
        return forward();
    }
    return nextSection <= lastSection ? nextSection++ : 0;
}

extern "C" __attribute__((visibility("default"))) void GOMP_sections_end_nowait(void) {
    if (sectionsDepth == 0) {
        static const SectionsEnd forward = libgomp<SectionsEnd>("GOMP_sections_end_nowait");
        forward();
    }
}

extern "C" __attribute__((visibility("default"))) int omp_get_thread_num(void) {
    if (inlineDepth == 0) {
        static const ThreadQuery forward = libgomp<ThreadQuery>("omp_get_thread_num");
        return forward();
    }
    return 0;
}

extern "C" __attribute__((visibility("default"))) int omp_get_num_threads(void) {
    if (inlineDepth == 0) {
        static const ThreadQuery forward = libgomp<ThreadQuery>("omp_get_num_threads");
        return forward();
    }
    return 1;
}
