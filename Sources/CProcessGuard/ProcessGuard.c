// See ProcessGuard.h.
#define _GNU_SOURCE
#include "ProcessGuard.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

/// How long libdispatch may go on failing to create a thread before the process ends.
#define SNAP_POEM_THREAD_GRACE_SECONDS 2

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SNAP_POEM_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SNAP_POEM_SANITIZED 1
#endif

static _Atomic(snap_poem_thread_failure_handler) failure_handler = NULL;

int snap_poem_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

#ifdef SNAP_POEM_SANITIZED

int snap_poem_guard_dispatch_threads(snap_poem_thread_failure_handler handler) {
    (void)handler;
    return -1;
}

#else

int snap_poem_guard_dispatch_threads(snap_poem_thread_failure_handler handler) {
    atomic_store(&failure_handler, handler);
    return 0;
}

typedef int (*create_function)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/// Whether `address` lies in libdispatch: in libdispatch.so where Swift's runtime is linked
/// dynamically (the development build), or in this executable itself where it is linked
/// statically (`--static-swift-stdlib`: the binary that `make install` and the .deb ship,
/// where libdispatch is part of the executable and its functions have no names once
/// stripped). The executable's own code creates no thread itself; Foundation's `Thread`,
/// linked in with it, is counted as libdispatch's there, and a thread it cannot create ends
/// the process with the same error.
static int is_in_libdispatch(void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return 0;
    if (info.dli_fname != NULL && strstr(info.dli_fname, "libdispatch") != NULL) return 1;
    Dl_info self;
    return dladdr((void *)&snap_poem_guard_dispatch_threads, &self) != 0 && self.dli_fbase != NULL &&
           info.dli_fbase == self.dli_fbase;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    static _Atomic(create_function) real = NULL;
    create_function function = atomic_load(&real);
    if (function == NULL) {
        function = (create_function)dlsym(RTLD_NEXT, "pthread_create");
        if (function == NULL) return EAGAIN;
        atomic_store(&real, function);
    }
    int result = function(thread, attributes, start, argument);
    if (result == EAGAIN) {
        snap_poem_thread_failure_handler handler = atomic_load(&failure_handler);
        if (handler != NULL && is_in_libdispatch(__builtin_return_address(0))) {
            // libdispatch tries again a second later, for ever. The first failures are let
            // through for a moment: the work may well finish on the threads there are (a
            // run that has said what went wrong, and is ending). Past that, the handler ends
            // the process with its error.
            static _Atomic(long) first_failure = 0;
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            long expected = 0;
            atomic_compare_exchange_strong(&first_failure, &expected, (long)now.tv_sec);
            if (now.tv_sec - atomic_load(&first_failure) >= SNAP_POEM_THREAD_GRACE_SECONDS) handler(result);
        }
    }
    return result;
}

#endif
