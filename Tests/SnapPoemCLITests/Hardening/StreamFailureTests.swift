import Foundation
import Testing

@testable import SnapPoemCLI

/// Row 1 of the hardening issue: writing results or diagnostics must never trap. A full
/// disk, a closed descriptor and a pipe whose reader has gone each give one error line (when
/// standard error still works) and exit 74.
@Suite("Standard output and error that cannot be written: an error, exit 74, never a trap")
struct StreamFailureTests {
    static let lenore = Fixtures.sample("Lenore.png")
    static let notDelivered = "; the results were not delivered"

    @Test("--version into a full file system", TinyFileSystem.required)
    func versionIntoFullDisk() async throws {
        let disk = try TinyFileSystem()
        let run = try await Spawned.run(["--version"], output: .file(disk.path("out.txt")))
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.error == "snap-poem: error: cannot write to standard output (no space left on device)\(Self.notDelivered)\n")
    }

    @Test("A poem into a full file system: 74 after the scan, not a crash", TinyFileSystem.required)
    func poemIntoFullDisk() async throws {
        let disk = try TinyFileSystem()
        let run = try await Spawned.run([Self.lenore, "--replace", "Lenore=Alex"], output: .file(disk.path("poem.txt")))
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.errorLines == ["snap-poem: error: cannot write to standard output (no space left on device)\(Self.notDelivered)"])
    }

    @Test("A usage error with standard error on a full file system: exit 74, no trap", TinyFileSystem.required)
    func errorIntoFullDisk() async throws {
        let disk = try TinyFileSystem()
        let run = try await Spawned.run(["--no-such-option"], error: .file(disk.path("err.txt")))
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.output.isEmpty)
    }

    @Test("Standard output closed (>&-)")
    func closedOutput() async throws {
        let run = try await Spawned.run(["--version"], output: .closed)
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.error == "snap-poem: error: cannot write to standard output (standard output is closed)\(Self.notDelivered)\n")
    }

    @Test("A scan with standard output closed: no file snap-poem opens becomes descriptor 1")
    func closedOutputDuringScan() async throws {
        let run = try await Spawned.run([Self.lenore], output: .closed)
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.errorLines == ["snap-poem: error: cannot write to standard output (standard output is closed)\(Self.notDelivered)"])
    }

    @Test("A pipe whose reader has gone: EPIPE is reported, SIGPIPE does not kill silently")
    func brokenPipe() async throws {
        let run = try await Spawned.run(["--help"], output: .brokenPipe)
        #expect(run.status == 74 && run.signal == nil)
        #expect(run.error == "snap-poem: error: cannot write to standard output (the reader closed the pipe)\(Self.notDelivered)\n")
    }

    @Test("Standard error closed: a usage error still exits (74), silently")
    func closedError() async throws {
        let run = try await Spawned.run(["--no-such-option"], error: .closed)
        #expect(run.status == 74 && run.signal == nil)
    }

    @Test("The console over real descriptors records a failed write and drops later ones")
    func consoleRecordsFailures() throws {
        signal(SIGPIPE, SIG_IGN)
        // Close-on-exec at once: a process another test spawns meanwhile must not inherit the
        // read end, which would keep the pipe open and the write successful (seen under a
        // sanitizer).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        close(ends[0])
        defer { close(ends[1]) }
        var errorEnds: [Int32] = [0, 0]
        try #require(pipe(&errorEnds) == 0)
        for end in errorEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(errorEnds[0]) }
        let console = Console.writing(output: ends[1], error: errorEnds[1], errorIsTerminal: false)
        console.writeOutput(Data("first\n".utf8))
        console.writeOutput(Data("second\n".utf8))
        close(errorEnds[1])
        #expect(console.failures?.hasFailed(.output) == true)
        #expect(console.failures?.hasFailed(.error) == false)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(errorEnds[0], &buffer, buffer.count)
        #expect(
            String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
                == "snap-poem: error: cannot write to standard output (the reader closed the pipe)\(Self.notDelivered)\n")
        #expect(SnapPoemCommand.exitCode(0, console: console) == 74)
        #expect(SnapPoemCommand.exitCode(130, console: console) == 130)
    }
}
