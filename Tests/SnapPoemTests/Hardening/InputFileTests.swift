import Foundation
import Synchronization
import Testing

@testable import SnapPoem

/// Rows 4 and 8 of the hardening issue, and the 4 KB leak on an empty file: inputs are read
/// only from regular files (never waited on), at most `limit` bytes, into memory.
@Suite("Reading inputs: regular files only, bounded, cancellable")
struct InputFileTests {
    @Test("A FIFO is refused at once, without waiting for a writer")
    func fifoRefused() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("poem.png").path
        try #require(mkfifo(path, 0o644) == 0)
        #expect(throws: SnapPoemError.notARegularFile(path: path, kind: "a FIFO (named pipe)")) {
            try ImageDecoder.decode(fileAt: path)
        }
        let replacements = "it is a FIFO (named pipe), not a regular file; a replacements file is a regular file of FIND=REPLACE lines"
        #expect(throws: SnapPoemError.unreadableFile(path: path, reason: replacements)) {
            try ReplacementsFile.load(path: path)
        }
    }

    @Test("A Unix socket is refused")
    func socketRefused() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.png").path
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(throws: SnapPoemError.self) { try ImageDecoder.decode(fileAt: path) }
        do {
            _ = try ImageDecoder.decode(fileAt: path)
        } catch {
            #expect(error.description.contains("not a regular file"))
        }
    }

    @Test("Kinds of file are named in words")
    func kinds() {
        #expect(InputFile.describe(fileType: S_IFCHR) == "a character device")
        #expect(InputFile.describe(fileType: S_IFBLK) == "a block device")
        #expect(InputFile.describe(fileType: S_IFSOCK) == "a socket")
    }

    @Test("A file over the limit is refused from its size, before it is read (a sparse 600 MiB file)")
    func tooLargeFromSize() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.png").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        try #require(truncate(path, 600 << 20) == 0)
        #expect(throws: SnapPoemError.fileTooLarge(path: path, bytes: 600 << 20, limit: 512 << 20)) {
            try ImageDecoder.decode(fileAt: path)
        }
        #expect(
            SnapPoemError.fileTooLarge(path: path, bytes: 600 << 20, limit: 512 << 20).description
                == "\(path): the input is 600 MiB, over the limit of 512 MiB; nothing was decoded")
    }

    @Test("A stream that never ends is read up to the limit, then refused")
    func endlessStream() throws {
        signal(SIGPIPE, SIG_IGN)  // the writer outlives the reader; it must see EPIPE, not die
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let writer = ends[1]
        let stop = Atomic<Bool>(false)
        Thread.detachNewThread {
            let zeros = [UInt8](repeating: 0, count: 1 << 16)
            while !stop.load(ordering: .relaxed), zeros.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
            close(writer)
        }
        defer {
            stop.store(true, ordering: .relaxed)
            close(ends[0])
        }
        #expect(throws: SnapPoemError.fileTooLarge(path: "<stdin>", bytes: nil, limit: 4 << 20)) {
            try InputFile.readStream(ends[0], name: "<stdin>", limit: 4 << 20, shouldStop: { false })
        }
    }

    @Test("Waiting on a silent stream stops when asked (Ctrl-C while reading standard input)")
    func silentStreamStops() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let asked = ContinuousClock.now + .milliseconds(300)
        let start = ContinuousClock.now
        #expect(throws: SnapPoemError.cancelled(path: "<stdin>")) {
            try InputFile.readStream(ends[0], name: "<stdin>", limit: 1 << 20, shouldStop: { ContinuousClock.now >= asked })
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("A file that keeps its reader waiting (as /proc/kmsg does) is refused after the stall bound")
    func stalledFileRefused() throws {
        // A pipe nobody writes to stands for the kernel file: poll never reports it ready.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let start = ContinuousClock.now
        #expect(
            throws: SnapPoemError.unreadableFile(
                path: "kmsg", reason: "it gave no data for 1 s; a file that waits for events, like /proc/kmsg, is not read")
        ) {
            try InputFile.readAll(ends[0], name: "kmsg", expected: 0, limit: 1 << 20, stall: .seconds(1), shouldStop: { false })
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .seconds(1) && waited < .seconds(5), "waited \(waited)")
        #expect(InputFile.regularFileStall == .seconds(2))
    }

    @Test("Waiting on such a file stops when asked, before the stall bound (one Ctrl-C)")
    func stalledFileStops() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let asked = ContinuousClock.now + .milliseconds(200)
        let start = ContinuousClock.now
        #expect(throws: SnapPoemError.cancelled(path: "kmsg")) {
            try InputFile.readAll(
                ends[0], name: "kmsg", expected: 0, limit: 1 << 20, stall: .seconds(30), shouldStop: { ContinuousClock.now >= asked })
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("Reading stops at the end of a stream and keeps every byte")
    func streamRead() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let writer = ends[1]
        Thread.detachNewThread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(writer, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writer)
        }
        defer { close(ends[0]) }
        #expect(try InputFile.readStream(ends[0], name: "pipe", limit: 1 << 20, shouldStop: { false }) == bytes)
    }

    @Test("A regular file's bytes are read whole; an empty one is empty (no leak: make test-asan)")
    func regularFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.bin").path
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try InputFile.read(path, limit: 1 << 20) == bytes)
        let empty = folder.appendingPathComponent("empty.png").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try InputFile.read(empty, limit: 1 << 20).isEmpty)
        #expect(throws: SnapPoemError.emptyFile(path: empty)) { try ImageDecoder.decode(fileAt: empty) }
        #expect(throws: SnapPoemError.fileTooLarge(path: path, bytes: 70_000, limit: 1000)) {
            try InputFile.read(path, limit: 1000)
        }
    }
}
