// Spawning a batch worker with exactly the file descriptors and signal state it should
// have. Swift's Glibc module hides posix_spawn_file_actions_addclosefrom_np (declared only
// under _GNU_SOURCE, which it does not set), and the set-up is a dozen C calls that read
// best together. Header-only: nothing to link.
#ifndef SNAP_POEM_CPROCESSCONTROL_SHIM_H
#define SNAP_POEM_CPROCESSCONTROL_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

// glibc 2.34 and later export this; <spawn.h> declares it only under _GNU_SOURCE.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);

/// Creates a pipe whose two ends close on exec (pipe2 with O_CLOEXEC, made as a system call
/// because glibc declares pipe2 only under _GNU_SOURCE), so that no other child process
/// started meanwhile inherits it. Returns 0, or -1 with errno set.
static inline int snap_poem_cloexec_pipe(int ends[2]) {
    return (int)syscall(SYS_pipe2, ends, O_CLOEXEC);
}

/// Starts `path` with `argv` and `envp` (NULL-terminated) as a batch worker:
/// - standard input reads /dev/null;
/// - standard output and standard error both go to `output_fd` (so that whatever a C
///   library prints, on either stream, reaches the supervisor as text tied to the image);
/// - `channel_fd` becomes file descriptor 3, the worker's protocol channel;
/// - every other descriptor is closed (posix_spawn_file_actions_addclosefrom_np);
/// - the worker gets a process group of its own, so a terminal's Ctrl-C reaches only the
///   supervisor, which decides what happens to the images in flight;
/// - SIGINT, SIGTERM and SIGPIPE are reset to their defaults and no signal is blocked.
/// posix_spawn is safe in a multi-threaded parent, unlike fork followed by work in the child.
/// Returns 0 and sets `*pid`, or an errno value.
static inline int snap_poem_spawn_worker(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                                         int channel_fd, int output_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigemptyset(&empty);
    if (status == 0) status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, output_fd, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, output_fd, 2);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, channel_fd, 3);
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (status == 0) status = posix_spawnattr_setpgroup(&attributes, 0);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &empty);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

#endif
