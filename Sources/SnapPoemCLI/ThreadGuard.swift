import CProcessGuard
import Foundation
import SnapPoem
import Synchronization

/// Ends the process with one clear error line when libdispatch cannot create a thread.
///
/// libdispatch answers a failed `pthread_create` (EAGAIN: memory exhausted under
/// `ulimit -v`, or a thread limit) by sleeping a second and trying again, for ever, so a
/// run under a tight memory limit hung instead of failing. `CProcessGuard` puts a
/// `pthread_create` in front of glibc's; once `install` has armed it, such a failure calls
/// `threadCreationFailed`, which removes unfinished output files, says what happened and
/// exits with 69. Nothing was written by then that could be left half-done.
enum ThreadGuard {
    /// The console the failure is reported on, and the temporary files removed first.
    fileprivate static let reporting = Mutex<(console: Console, unfinished: UnfinishedFiles)?>(nil)
    /// The exit code of a single image's run that has already reported its error, or 0. A
    /// thread that cannot start after that (libdispatch's workers while the run ends, under
    /// `ulimit -v`) ends the process with this code and no second line: the one error said
    /// already is the run's whole answer.
    fileprivate static let reportedExitCode = Atomic<Int32>(0)

    /// Records that a single image's run has reported its error, and the code it ends with.
    static func runHasReported(_ code: ExitCode) {
        reportedExitCode.store(code.rawValue, ordering: .relaxed)
    }

    /// Arms the guard for this process (the executable's `main` only).
    static func install(console: Console, unfinished: UnfinishedFiles) {
        reporting.withLock { $0 = (console, unfinished) }
        _ = snap_poem_guard_dispatch_threads(threadCreationFailed)
    }

    /// The message for a thread that could not be created, naming the memory limit if any.
    static func message(error: Int32) -> String {
        var detail = error == EAGAIN ? "out of memory, or the process's thread limit reached" : String(cString: strerror(error))
        if let limit = AddressSpaceLimit.current {
            detail += "; the address-space limit (ulimit -v) is \(limit / (1 << 20)) MiB"
        }
        let diagnostic = Diagnostic(.error, "cannot start a thread (\(detail)); raise the limit or free memory", category: .engine)
        return DiagnosticsEngine.lines(diagnostic).joined(separator: "\n") + "\n"
    }
}

/// Called by `CProcessGuard` on the thread whose `pthread_create` failed; never returns.
private let threadCreationFailed: snap_poem_thread_failure_handler = { error in
    let reporting = ThreadGuard.reporting.withLock { $0 }
    reporting?.unfinished.removeAll()
    let reported = ThreadGuard.reportedExitCode.load(ordering: .relaxed)
    if reported != 0 { _exit(reported) }
    reporting?.console.writeError(ThreadGuard.message(error: error))
    _exit(ExitCode.ocrUnavailable.rawValue)
}
