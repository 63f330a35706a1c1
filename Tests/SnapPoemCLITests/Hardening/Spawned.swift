import Foundation
import SnapPoemTestSupport
import Testing

/// Runs the built `snap-poem` with full control over its three standard descriptors, an
/// optional `ulimit -v`, and a hard time limit: what the hardening tests need and
/// `Process` cannot give (a closed descriptor, a pipe whose reader has gone, an endless
/// standard input).
///
/// Output and error go to files in a private folder (no pipe can fill up and stall the
/// child); the child is killed if it outlives `timeout`, so a regression that hangs fails
/// the test instead of the suite. Nothing here opens a device file.
struct Spawned {
    /// Where the child's standard input comes from.
    enum Input {
        /// An empty file.
        case empty
        /// These bytes.
        case bytes(Data)
        /// The file at this path.
        case file(String)
        /// Closed (`<&-`).
        case closed
        /// A pipe the test keeps open and never writes to: reads wait for ever.
        case silent
        /// A pipe fed with zero bytes for as long as the child reads.
        case endless
    }

    /// Where standard output or standard error goes.
    enum Output {
        /// A file in the private folder, read back into the result.
        case captured
        /// The file at this path (e.g. on a full tmpfs).
        case file(String)
        /// Closed (`>&-`).
        case closed
        /// A pipe whose reading end is already closed.
        case brokenPipe
    }

    /// The exit status, or 128 + the signal number when a signal ended the child.
    var status: Int32
    /// The signal that ended the child, if one did.
    var signal: Int32?
    /// Whether the child was killed for outliving the time limit.
    var timedOut: Bool
    /// What it wrote to standard output (when captured).
    var output: Data
    /// What it wrote to standard error (when captured).
    var error: String
    /// Its peak resident memory, in MiB.
    var peakMegabytes: Int
    /// The processor time it used, user and system (`wait4`'s `rusage`): unlike the wall
    /// time, not stretched by other processes' load on the machine.
    var processorTime: Duration
    /// When the child was seen to have ended (the caller may resume much later when the
    /// test process is busy).
    var ended: ContinuousClock.Instant

    /// Why `ulimit -v` runs cannot be made, or nil: under AddressSanitizer (`make test-asan`
    /// sets SNAP_POEM_TESTS_SANITIZER) the executable reserves terabytes of shadow address
    /// space and cannot start under any such limit.
    static var memoryLimitsUnavailable: String? {
        ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_SANITIZER"] == "address"
            ? "AddressSanitizer's shadow memory does not fit under ulimit -v" : nil
    }

    /// The lines written to standard error.
    var errorLines: [Substring] { error.split(separator: "\n") }

    /// Runs the executable with `arguments` on a thread of its own.
    static func run(
        _ arguments: [String], input: Input = .empty, output: Output = .captured, error: Output = .captured,
        memoryLimitKilobytes: Int? = nil, timeout: Duration = .seconds(120), workingDirectory: String? = nil,
        whileRunning: (@Sendable (pid_t) -> Void)? = nil
    ) async throws -> Spawned {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "snap-poem-tests.spawned").async {
                do {
                    continuation.resume(
                        returning: try runBlocking(
                            arguments, input: input, output: output, error: error, memoryLimitKilobytes: memoryLimitKilobytes,
                            timeout: timeout, workingDirectory: workingDirectory, whileRunning: whileRunning))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Waits until one of the threads of process `pid` is blocked in `poll(2)` (how
    /// snap-poem waits for standard input), reading `/proc/PID/task/*/syscall`. Returns
    /// whether it saw that before `timeout`.
    static func waitUntilPolling(_ pid: pid_t, timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        #if arch(x86_64)
            let pollCalls = ["7 ", "271 "]  // poll, ppoll
        #else
            let pollCalls = ["73 "]  // ppoll (aarch64 has no poll)
        #endif
        while clock.now < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let line = String(decoding: contents("/proc/\(pid)/task/\(task)/syscall"), as: UTF8.self)
                if pollCalls.contains(where: line.hasPrefix) { return true }
            }
            usleep(50_000)
        }
        return false
    }

    /// The bytes of the file at `path` (empty when it cannot be read).
    static func contents(_ path: String) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return Data() }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }

    /// The peak memory a run may use, in MiB: `bound`, or three times it under
    /// AddressSanitizer, whose shadow memory and quarantine cost that much.
    static func memoryBound(_ bound: Int) -> Int {
        ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_SANITIZER"] == "address" ? 3 * bound : bound
    }

    /// The processor time a run may use: `bound`, or three times it under a sanitizer
    /// (`TestSanitizer.slowdown`): the same work costs that much more there.
    static func processorTimeBound(_ bound: Duration) -> Duration {
        TestSanitizer.scaled(bound)
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
    }

    private static func runBlocking(
        _ arguments: [String], input: Input, output: Output, error: Output, memoryLimitKilobytes: Int?, timeout: Duration,
        workingDirectory: String?, whileRunning: (@Sendable (pid_t) -> Void)?
    ) throws -> Spawned {
        // The feeder of an endless input outlives the child's reading end: it must get EPIPE,
        // not kill the test process.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { (parentEnds + childEnds).forEach { close($0) } }

        func pipePair() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw SpawnFailure(description: "pipe failed") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        func openFile(_ path: String, flags: Int32) throws -> Int32 {
            let descriptor = open(path, flags | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw SpawnFailure(description: "cannot open \(path): \(errno)") }
            return descriptor
        }

        // Standard input.
        var feeder: Int32?
        switch input {
        case .empty, .bytes:
            let path = folder.appendingPathComponent("stdin").path
            if case .bytes(let data) = input {
                try data.write(to: URL(fileURLWithPath: path))
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
            }
            let descriptor = try openFile(path, flags: O_RDONLY)
            childEnds.append(descriptor)
            posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        case .file(let path):
            let descriptor = try openFile(path, flags: O_RDONLY | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFL, 0)
            childEnds.append(descriptor)
            posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        case .closed:
            posix_spawn_file_actions_addclose(&actions, 0)
        case .silent, .endless:
            let ends = try pipePair()
            childEnds.append(ends.read)
            parentEnds.append(ends.write)
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
            if case .endless = input { feeder = ends.write }
        }
        // Standard output and error.
        var captured: [Int32: String] = [:]
        for (target, choice) in [(Int32(1), output), (Int32(2), error)] {
            switch choice {
            case .captured:
                let path = folder.appendingPathComponent("fd\(target)").path
                let descriptor = try openFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
                childEnds.append(descriptor)
                captured[target] = path
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .file(let path):
                let descriptor = try openFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
                childEnds.append(descriptor)
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .closed:
                posix_spawn_file_actions_addclose(&actions, target)
            case .brokenPipe:
                let ends = try pipePair()
                close(ends.read)
                childEnds.append(ends.write)
                posix_spawn_file_actions_adddup2(&actions, ends.write, target)
            }
        }
        var argv = [BinaryRun.executable.path] + arguments
        var prelude: [String] = []
        if let limit = memoryLimitKilobytes { prelude.append("ulimit -v \(limit)") }
        if let workingDirectory { prelude.append("cd '\(workingDirectory.replacingOccurrences(of: "'", with: "'\\''"))'") }
        if !prelude.isEmpty {
            argv = ["/bin/bash", "-c", (prelude + ["exec \"$0\" \"$@\""]).joined(separator: " && ")] + argv
        }
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling, whatever the test process ignores.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw SpawnFailure(description: "posix_spawn failed: \(spawned)") }
        childEnds.forEach { close($0) }
        childEnds = []

        if let feeder {
            let descriptor = dup(feeder)
            Thread.detachNewThread {
                let zeros = [UInt8](repeating: 0, count: 1 << 16)
                while zeros.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                close(descriptor)
            }
            close(feeder)
            parentEnds.removeAll { $0 == feeder }
        }
        whileRunning?(pid)

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        // The child's own peak, sampled from /proc while it runs. Not `ru_maxrss`: a child
        // that posix_spawn starts shares the test process's memory until it execs, and Linux
        // carries that memory's high-water mark into the child's, so every child would
        // report the (large, growing) test process's peak.
        // Only samples taken once the child runs snap-poem itself count: before that it is
        // bash (the prelude) or, for an instant, still the test process's copy.
        var peakKilobytes = 0
        let executable = BinaryRun.executable.resolvingSymlinksInPath().path
        while true {
            if Self.executablePath(of: pid) == executable, let sample = Self.highWaterKilobytes(of: pid) {
                peakKilobytes = max(peakKilobytes, sample)
            }
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0, errno != EINTR { throw SpawnFailure(description: "wait4 failed: \(errno)") }
            if clock.now >= deadline, !timedOut {
                timedOut = true
                Self.reportStacks(of: pid, arguments: arguments)
                kill(pid, SIGKILL)
            }
            usleep(10_000)
        }
        let ended = clock.now
        let signalled = status & 0x7F
        // Read with read(2): Foundation's FileManager.contents(atPath:) leaks 4 KiB on an
        // empty file, which make test-asan would report.
        let read = { (descriptor: Int32) in captured[descriptor].map(Self.contents) ?? Data() }
        return Spawned(
            status: signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled,
            signal: signalled == 0 ? nil : signalled,
            timedOut: timedOut,
            output: read(1),
            error: String(decoding: read(2), as: UTF8.self),
            peakMegabytes: peakKilobytes / 1024,
            processorTime: .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec),
            ended: ended)
    }

    /// Writes the stacks of every thread of a child that outlived its time limit to the test
    /// process's standard error, with gdb where it is installed, and what the kernel says of
    /// it (state, wait channel, processor time): a hang that happens once in many runs then
    /// says where it hung. gdb itself gets at most 60 s.
    static func reportStacks(of pid: pid_t, arguments: [String]) {
        var report = "Spawned: snap-poem \(arguments.prefix(4).joined(separator: " ")) (pid \(pid)) outlived its time limit\n"
        for file in ["stat", "wchan"] {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) {
                report += "/proc/\(pid)/\(file): \(text.trimmingCharacters(in: .whitespacesAndNewlines))\n"
            }
        }
        let gdb = "/usr/bin/gdb"
        if FileManager.default.isExecutableFile(atPath: gdb) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["60", gdb, "-batch", "-nx", "-p", "\(pid)", "-ex", "thread apply all bt 30"]
            if let result = try? PipedProcess.run(process, input: nil) {
                report += String(decoding: result.output + result.error, as: UTF8.self)
            }
        } else {
            report += "(no gdb: no stacks)\n"
        }
        FileHandle.standardError.write(Data(report.utf8))
    }

    /// The program a running process executes (`/proc/PID/exe`), nil once it has ended.
    static func executablePath(of pid: pid_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `VmHWM` of a running process, in KiB (nil once it has ended).
    static func highWaterKilobytes(of pid: pid_t) -> Int? {
        let file = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
