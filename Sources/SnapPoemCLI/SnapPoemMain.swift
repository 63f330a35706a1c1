import CProcessGuard
import Dispatch
import Foundation
import SnapPoem

/// The process entry point: runs the command in a task that Ctrl-C (SIGINT) or SIGTERM
/// cancels, so recognition stops promptly and no output is left half-written.
public enum SnapPoemMain {
    /// Runs `snap-poem` with the process's arguments and exits with its exit code.
    ///
    /// `--help`, `--version`, `--list-langs` and usage errors are answered right here, on
    /// the main thread, before Dispatch or Swift's concurrency runtime has started a single
    /// thread: they need none, and under a tight memory limit (`ulimit -v`) libdispatch
    /// retries a thread it cannot create for ever, so `--version` never returned. Only a
    /// run that reads images starts the runtime.
    public static func main() -> Never {
        // The executable's overrides and quiet libraries, before any library call.
        ProcessOverrides.install()
        ProcessStreams.prepare()
        // Under an address-space limit (`ulimit -v`), one malloc arena, so that address space
        // goes where memory goes (see `snap_poem_limit_malloc_arenas`). Without one, glibc's
        // default: the two engines reading one image's lines, and the service's workers,
        // each allocate from an arena of their own; sharing one cost a tenth of the wall
        // time of a single image (BENCHMARKS.md). The user may choose with glibc's own
        // variable; batch workers get theirs from the supervisor.
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil, AddressSpaceLimit.current != nil {
            _ = snap_poem_limit_malloc_arenas(1)
        }
        let console = Console.standard
        let arguments = processArguments
        if arguments.first == workerArgument {
            // A batch worker: its supervisor (in another process group) decides about
            // signals and stops it itself, so the default dispositions stay. It is configured
            // by its supervisor's first message, never by this command line.
            ThreadGuard.install(console: console, unfinished: unfinished)
            Task.detached { exit(await BatchWorker.serve()) }
            parkMainThread()
        }
        let plan = SnapPoemCommand.plan(arguments, console: console)
        if case .answered(let code) = plan { exit(SnapPoemCommand.exitCode(code, console: console)) }
        ThreadGuard.install(console: console, unfinished: unfinished)
        // Blocked before any thread exists (threads inherit it): a Ctrl-C that comes before
        // the signal sources are ready stays pending for them instead of being lost.
        var interrupts = sigset_t()
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &interrupts, nil)
        Task.detached {
            let code = await run(plan, console: console)
            exit(SnapPoemCommand.exitCode(code, console: console))
        }
        parkMainThread()
    }

    /// The arguments without the program name, kept for the life of the process: each as
    /// text, an argument that is not valid UTF-8 shown with `\xNN` escapes
    /// (`BatchInput.displayName(of:)`) rather than with U+FFFD, which names no file.
    private static let processArguments = RawArguments.process.shown

    /// The exact bytes of the process's arguments that are not valid UTF-8, by their shown
    /// form: what a file argument opens (`InputCollection.collect(_:fileSystemPaths:followsLinksOutside:)`).
    static var argumentBytes: [String: [UInt8]] { RawArguments.process.bytes }

    /// The first argument that selects the hidden batch worker mode (`BatchWorker`), which a
    /// batch's supervisor starts. Not in `--help`: it is meaningless without a supervisor on
    /// descriptor 3.
    static let workerArgument = "--internal-batch-worker"

    /// The temporary files of this process's writes in progress, deleted when it must end at
    /// once (a second Ctrl-C, a thread that cannot be created).
    private static let unfinished = UnfinishedFiles()

    /// Leaves the main thread asleep for good, with every signal blocked, while the task
    /// runs on Swift's threads and ends the process with `exit`. Blocked here, SIGINT and
    /// SIGTERM stay pending for libdispatch's signal sources (its own threads block them
    /// too). Nothing runs on the main queue, so `dispatchMain()` is not needed; it also
    /// trips AddressSanitizer (a false stack overflow in `_dispatch_sigmask`).
    private static func parkMainThread() -> Never {
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        while true { pause() }
    }

    /// Carries out `plan` in a task that SIGINT and SIGTERM cancel. `serve` stops gracefully
    /// on the first signal and says itself how it ended; a batch returns 130.
    static func run(_ plan: SnapPoemCommand.Plan, console: Console) async -> Int32 {
        let unfinished = self.unfinished
        let stopsGracefully: Bool
        let task: Task<Int32, Never>
        switch plan {
        case .answered(let code):
            return code
        case .serve(let serveArguments):
            stopsGracefully = true
            task = Task { await ServeCommand.run(serveArguments, console: console).rawValue }
        case .scan(let options):
            stopsGracefully = false
            task = Task {
                await ScanCommand(
                    options: options, console: console, environment: ProcessInfo.processInfo.environment, unfinished: unfinished
                ).run().rawValue
            }
        }
        var sources: [DispatchSourceSignal] = []
        var blocked = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &blocked)
        for signalNumber in [SIGINT, SIGTERM] {
            // Blocked (by `main`, before any thread), a signal that came early is pending and
            // the source receives it; ignoring it now would discard it (POSIX), so a Ctrl-C
            // pressed while the process starts on a loaded machine would be lost. Not blocked
            // (`run()` called by a host), the default action must not end the process.
            if sigismember(&blocked, signalNumber) == 0 { signal(signalNumber, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // The first signal cancels: recognition stops, temporary files are removed.
                // A second one ends the process at once, e.g. while Tesseract is still in
                // layout analysis; outputs are only ever renamed into place, and the
                // temporary files of those being written are removed first.
                // Two signals in quick succession arrive as one event counting both.
                if task.isCancelled || source.data > 1 {
                    unfinished.removeAll()
                    DiagnosticsEngine(console: console).say("stopped at once (interrupted twice); nothing was left half-written")
                    _exit(ExitCode.interrupted.rawValue)
                }
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        let code = await task.value
        sources.forEach { $0.cancel() }
        return task.isCancelled && !stopsGracefully ? ExitCode.interrupted.rawValue : code
    }
}

/// The process's arguments as the kernel passed them: bytes, which need not be UTF-8.
struct RawArguments {
    /// Every argument after the program name, as text.
    let shown: [String]
    /// The bytes of the arguments that are not valid UTF-8, by their shown form.
    let bytes: [String: [UInt8]]

    /// Reads `CommandLine.unsafeArgv` once.
    static let process: RawArguments = {
        var arguments: [[UInt8]] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            arguments.append(Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) })
        }
        return RawArguments(arguments)
    }()

    /// The arguments `raw`, as text and bytes.
    init(_ raw: [[UInt8]]) {
        var shown: [String] = []
        var bytes: [String: [UInt8]] = [:]
        for argument in raw {
            if let text = String(validating: argument, as: UTF8.self) {
                shown.append(text)
            } else {
                let name = BatchInput.displayName(of: argument)
                shown.append(name)
                bytes[name] = argument
            }
        }
        self.shown = shown
        self.bytes = bytes
    }
}
