import Foundation
import Synchronization
import Testing

/// Rows 2, 4, 8, 10, 11, 12 and 13 of the hardening issue, and the time limit with a layout
/// format, through the built executable.
@Suite("Hardening rows: special files, endless input, odd names, interrupts")
struct InputOutputRowsTests {
    static let lenore = Fixtures.sample("Lenore.png")

    @Test("-o FIFO -f: refused, the FIFO stays a FIFO (--force replaces regular files only)")
    func forceRefusesFIFO() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("f").path
        try #require(mkfifo(fifo, 0o644) == 0)
        let run = try await Spawned.run([Self.lenore, "-o", fifo, "-f", "--format", "text"])
        #expect(run.status == 73)
        #expect(
            run.errorLines == [
                "snap-poem: error: \(fifo): output not written (it is a FIFO (named pipe), not a regular file; snap-poem replaces regular files only (use '-o -' for standard output)); nothing was left behind"
            ])
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f"])
    }

    @Test("A FIFO as input: 'not a regular file' at once, not a wait for a writer nor 'permission'")
    func fifoInput() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("poem.png").path
        try #require(mkfifo(fifo, 0o644) == 0)
        let run = try await Spawned.run([fifo], timeout: .seconds(60))
        #expect(!run.timedOut && run.status == 1)
        #expect(
            run.errorLines == [
                "snap-poem: error: \(fifo): not a regular file (a FIFO (named pipe)); snap-poem reads images from regular files, or from standard input as '-'"
            ])
    }

    @Test("Standard input that never ends: capped at 512 MiB, then one error; memory stays bounded")
    func endlessStandardInput() async throws {
        let run = try await Spawned.run(["-"], input: .endless, timeout: .seconds(120))
        #expect(!run.timedOut && run.status == 1)
        #expect(run.errorLines == ["snap-poem: error: <stdin>: the input holds more, over the limit of 512 MiB; nothing was decoded"])
        #expect(run.peakMegabytes < Spawned.memoryBound(900), "peak \(run.peakMegabytes) MiB")
        // The child's own memory is what is measured: it did hold the 512 MiB it read.
        #expect(run.peakMegabytes >= 512, "peak \(run.peakMegabytes) MiB")
    }

    @Test("Ctrl-C while snap-poem waits for standard input stops it at the first press")
    func interruptWhileReadingStandardInput() async throws {
        let interrupted = Mutex<ContinuousClock.Instant?>(nil)
        let run = try await Spawned.run(["-"], input: .silent, timeout: .seconds(120)) { pid in
            // Wait until snap-poem is in poll(2) on standard input (its engine started, which
            // can take long when the whole suite loads the machine), then press Ctrl-C once.
            _ = Spawned.waitUntilPolling(pid, timeout: .seconds(100))
            interrupted.withLock { $0 = .now }
            kill(pid, SIGINT)
        }
        #expect(!run.timedOut && run.status == 130)
        #expect(run.errorLines == ["snap-poem: error: <stdin>: cancelled"], "\(run.error)")
        let sent = try #require(interrupted.withLock { $0 })
        #expect(run.ended - sent < .seconds(10))
    }

    @Test("Two Ctrl-C in a row: exit 130 and no temporary or partial file left in the output folder")
    func doubleInterrupt() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poem.txt").path
        let run = try await Spawned.run([Fixtures.sample("photo-phone-size.jpg"), "-o", output], timeout: .seconds(60)) { pid in
            usleep(1_500_000)
            kill(pid, SIGINT)
            usleep(20_000)
            kill(pid, SIGINT)
        }
        #expect(!run.timedOut && run.status == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("A file name with a line break or a terminal escape stays on one line, escaped")
    func escapedNames() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("po\nem\u{1B}[2J.png").path
        try Data("not an image at all, just words\n".utf8).write(to: URL(fileURLWithPath: name))
        let run = try await Spawned.run([name])
        #expect(run.status == 1)
        let shown = name.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u{1B}")
        #expect(run.errorLines == ["snap-poem: error: \(shown): not an image snap-poem can read (the data is plain text)"])
    }

    @Test("More than 10 000 replacement pairs: a usage error at once, before any image is read")
    func tooManyPairs() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pairs.txt").path
        let lines = ["# snap-poem replacements v1"] + (0...10_000).map { "w\($0)=x" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let run = try await Spawned.run(["missing.png", "--replacements", file])
        #expect(run.status == 64)
        #expect(run.errorLines.first == "snap-poem: error: \(file):10002: more than 10000 pairs; snap-poem takes at most 10000")
    }

    @Test("-o '' names the problem")
    func emptyOutputName() async throws {
        let run = try await Spawned.run([Self.lenore, "-o", ""])
        #expect(run.status == 64)
        #expect(run.errorLines.first == "snap-poem: error: Invalid value '' for '--output <FILE>': the name is empty.")
    }

    @Test(
        "A time limit with a layout format: the partial (empty) document and exit 124, not an export error",
        arguments: ["hocr", "tsv", "alto"])
    func timeLimitWithLayoutFormat(format: String) async throws {
        let run = try await Spawned.run([Fixtures.sample("photo-phone-size.jpg"), "--format", format, "--timeout", "0.001"])
        #expect(run.status == 124)
        let text = String(decoding: run.output, as: UTF8.self)
        switch format {
        case "hocr": #expect(text.contains("<div class='ocr_page'") && text.hasSuffix("</html>\n"))
        case "tsv": #expect(text.hasPrefix("level\tpage_num\t"))
        default: #expect(text.contains("<Page WIDTH=") && text.hasSuffix("</alto>\n"))
        }
        #expect(run.errorLines.contains { $0.contains("time limit of 0.001 s reached; the text is partial") })
    }

    @Test("-c of a process-wide Tesseract variable is refused (exit 69), not leaked into other engines")
    func processWideVariable() async throws {
        let run = try await Spawned.run([Self.lenore, "-c", "textord_heavy_nr=1"])
        #expect(run.status == 69)
        #expect(
            run.errorLines == [
                "snap-poem: error: Tesseract variable 'textord_heavy_nr': it is process-wide in Tesseract (shared by every engine in this process), so snap-poem does not set it for one engine"
            ])
    }
}
