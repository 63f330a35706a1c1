import Foundation
import Testing

@testable import SnapPoem

/// Row 2 (only regular files are replaced), row 12 (an empty name), row 13 (temporary files
/// removed on every exit path) and the `fchmod` review point.
@Suite("Output files: regular files only, links written through, nothing left on any exit")
struct OutputFileHardeningTests {
    @Test("A FIFO at the destination is refused with or without overwrite, and stays a FIFO", arguments: [false, true])
    func fifoRefused(overwrite: Bool) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("f").path
        try #require(mkfifo(path, 0o644) == 0)
        let reason =
            "it is a FIFO (named pipe), not a regular file; snap-poem replaces regular files only (use '-o -' for standard output)"
        #expect(throws: SnapPoemError.outputNotWritten(path: path, reason: reason)) {
            try OutputFile.write(Data("poem\n".utf8), to: path, overwrite: overwrite)
        }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f"])
    }

    @Test("A symbolic link is written through: its target is replaced, the link kept")
    func symbolicLinkWrittenThrough() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("real.txt").path
        let link = folder.appendingPathComponent("link.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.txt")
        #expect(throws: SnapPoemError.outputNotWritten(path: link, reason: "the file exists, and replacing it was not asked for")) {
            try OutputFile.write(Data("new\n".utf8), to: link)
        }
        try OutputFile.write(Data("new\n".utf8), to: link, overwrite: true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.txt")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
    }

    @Test("A link to nothing is refused rather than replaced")
    func danglingLink() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing/x.txt")
        #expect(throws: SnapPoemError.outputNotWritten(path: link, reason: "it is a symbolic link to a file that does not exist")) {
            try OutputFile.write(Data("new\n".utf8), to: link, overwrite: true)
        }
    }

    @Test("An empty name says so")
    func emptyName() {
        #expect(throws: SnapPoemError.outputNotWritten(path: "", reason: "the file name is empty")) {
            try OutputFile.write(Data("x".utf8), to: "")
        }
    }

    @Test("removeUnfinishedFiles deletes the temporary files of writes in progress, and only those")
    func unfinishedFilesRemoved() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent(".poem.txt.snap-poem-ABC123").path
        let other = folder.appendingPathComponent("poem.txt").path
        try Data("half".utf8).write(to: URL(fileURLWithPath: temporary))
        try Data("done".utf8).write(to: URL(fileURLWithPath: other))
        // The registry is this run's own, so nothing else's writes are in it.
        let unfinished = UnfinishedFiles()
        unfinished.insert(temporary)
        unfinished.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["poem.txt"])
    }

    @Test("A finished write leaves no temporary file registered, and the file mode follows the umask")
    func finishedWriteUnregistered() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("poem.txt").path
        let unfinished = UnfinishedFiles()
        try OutputFile.write(Data("poem\n".utf8), to: path, unfinished: unfinished)
        #expect(unfinished.current.isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        #expect(mode & 0o600 == 0o600 && mode & 0o022 == 0)
    }
}
