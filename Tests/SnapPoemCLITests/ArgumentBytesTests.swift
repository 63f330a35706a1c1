import Foundation
import Testing

@testable import SnapPoemCLI

/// File names on Linux are bytes: an argument that is not valid UTF-8 names a file as well
/// as any other, and is shown with `\xNN` escapes (never as U+FFFD, which names no file).
@Suite("Arguments that are not UTF-8")
struct ArgumentBytesTests {
    @Test("An argument's stray bytes are shown as \\xNN and kept to open the file")
    func rawArguments() {
        let arguments = RawArguments([Array("-r".utf8), Array("caf".utf8) + [0xE9] + Array(".png".utf8), Array("é.png".utf8)])
        #expect(arguments.shown == ["-r", "caf\\xE9.png", "é.png"])
        #expect(arguments.bytes == ["caf\\xE9.png": Array("caf".utf8) + [0xE9] + Array(".png".utf8)])
    }

    @Test("A Latin-1 file name given as an argument is read; a missing one is named as given")
    func latin1FileArgument() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Data(contentsOf: URL(fileURLWithPath: BatchFixtures.stanza))
        let path = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".png".utf8)
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = image.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let read = try await Self.run(folder.path + "/caf\\xE9.png")
        #expect(read.status == 0, "\(read.error)")
        #expect(read.output.contains("golden bowl"))
        let missing = try await Self.run(folder.path + "/missing\\xE9.png")
        #expect(missing.status == 1)
        #expect(missing.error == "snap-poem: error: \(folder.path)/missing\\xE9.png: no such file\n")
    }

    /// Runs snap-poem with one argument whose `\xNN` escapes bash's `printf %b` turns into
    /// bytes: Foundation's `Process` can pass only valid UTF-8.
    static func run(_ escaped: String) async throws -> BinaryRun {
        try await BinaryRun.run(
            ["-c", "exec \"$0\" \"$(printf '%b' \"$1\")\"", BinaryRun.executable.path, escaped],
            program: URL(fileURLWithPath: "/bin/bash"))
    }
}
