// Process-wide guards for the snap-poem executable (never linked into the library).
//
// 1. A guard against libdispatch's endless retry when a thread cannot be created.
//
// When pthread_create fails with EAGAIN (out of memory under `ulimit -v`, or a process
// limit), libdispatch sleeps a second and tries again, for ever: the process hangs. This
// target defines pthread_create in the snap-poem executable, in front of glibc's; it calls
// the real one and, when a call made by libdispatch fails with EAGAIN and a handler is
// installed, calls the handler, which reports the failure and ends the process. libdispatch
// is found by the caller's address: in libdispatch.so, or, in the binary that links Swift's
// runtime statically (make install, the .deb), in the executable itself. Other callers
// (libmicrohttpd, libgomp), and every call before a handler is installed, see pthread_create
// unchanged.
//
// Under AddressSanitizer or ThreadSanitizer the definition is left out: their runtimes
// intercept pthread_create themselves.
#ifndef SNAP_POEM_PROCESS_GUARD_H
#define SNAP_POEM_PROCESS_GUARD_H

#ifdef __cplusplus
extern "C" {
#endif

/// Called with the error code when libdispatch cannot create a thread. Must not return.
typedef void (*snap_poem_thread_failure_handler)(int error);

/// Installs `handler` (NULL removes it). Returns 0 when the guard is compiled in, -1 when
/// it is not (sanitizer builds), in which case nothing is installed.
int snap_poem_guard_dispatch_threads(snap_poem_thread_failure_handler handler);

/// 2. Limits glibc to `count` malloc arenas (mallopt M_ARENA_MAX). Each arena beyond the
/// first reserves address space in 64 MiB heaps, so under an address-space limit
/// (`ulimit -v`) a thread's first allocation could fail while plenty of memory was left,
/// at places in Tesseract and Leptonica that do not check. Returns mallopt's result (1 on
/// success). Call before any thread starts.
int snap_poem_limit_malloc_arenas(int count);

#ifdef __cplusplus
}
#endif

#endif
