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

/// Whether `address` lies in libdispatch.
static int is_in_libdispatch(void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libdispatch") != NULL;
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
