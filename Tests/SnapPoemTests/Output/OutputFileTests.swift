import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

/// Runs a system tool, returning whether it succeeded and what it said on standard error.
@discardableResult
func runTool(_ path: String, _ arguments: [String]) -> (ok: Bool, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { return (false, "\(error)") }
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus == 0, message.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// A folder that nobody, not even root, can create files in, or nil with the reason.
///
/// Tests often run as root (CI containers), and root ignores a directory's write permission,
/// so `chmod 555` proves nothing there. For root the folder is made immutable with
/// `chattr +i`, which the kernel enforces for root too; for other users `chmod 555` is the
/// honest test. Either way a probe file must fail to appear before the folder is used.
func makeUnwritableFolder(_ folder: URL) -> String? {
    if RootStep.isRoot {
        if let reason = RootStep.unavailable { return reason }
        let result = runTool("/usr/bin/chattr", ["+i", folder.path])
        if !result.ok { return "running as root and chattr +i failed (\(result.error)); cannot make a folder root cannot write" }
    } else {
        chmod(folder.path, 0o555)
    }
    let probe = folder.appendingPathComponent("probe").path
    if FileManager.default.createFile(atPath: probe, contents: Data()) {
        try? FileManager.default.removeItem(atPath: probe)
        return "the folder is still writable; this file system ignores the flag"
    }
    return nil
}

/// Undoes `makeUnwritableFolder`.
func makeWritable(_ folder: URL) {
    if RootStep.isRoot && RootStep.isAllowed { runTool("/usr/bin/chattr", ["-i", folder.path]) }
    chmod(folder.path, 0o755)
}

/// Mounts a 16 KiB tmpfs on `folder` so that writing more fails with ENOSPC; nil when it
/// worked, else why not (it needs root and mount privileges: a `RootStep`).
func mountTinyFileSystem(on folder: URL) -> String? {
    if let reason = RootStep.unavailable { return reason }
    let result = runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=16k,mode=0755", "tmpfs", folder.path])
    return result.ok ? nil : "mount -t tmpfs failed (\(result.error)); no small file system to fill"
}

@Suite("Safe writes: atomic, never the input, nothing partial on failure")
struct OutputFileTests {
    @Test("A folder that cannot be written: a clear error, the old file kept, nothing left behind")
    func unwritableFolder() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = folder.appendingPathComponent("poem.txt").path
        try Data("old poem\n".utf8).write(to: URL(fileURLWithPath: existing))
        if let reason = makeUnwritableFolder(folder) { try Test.cancel(Comment(rawValue: reason)) }
        defer { makeWritable(folder) }

        for (path, overwrite) in [(folder.appendingPathComponent("new.txt").path, false), (existing, true)] {
            #expect {
                try OutputFile.write(Data("new poem\n".utf8), to: path, overwrite: overwrite)
            } throws: { error in
                guard case .outputNotWritten(let failedPath, let reason) = error as? SnapPoemError else { return false }
                return failedPath == path && (reason == "permission denied" || reason == "operation not permitted")
            }
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old poem\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["poem.txt"])
    }

    @Test("A parent that is a file, not a folder")
    func parentIsFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        #expect(throws: SnapPoemError.outputNotWritten(path: file.path + "/poem.txt", reason: "\(file.path) is not a folder")) {
            try OutputFile.write(Data("poem".utf8), to: file.path + "/poem.txt")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.txt"])
    }

    @Test("A full disk: ENOSPC is reported and the half-written temporary file is removed")
    func diskFull() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        if let reason = mountTinyFileSystem(on: folder) { try Test.cancel(Comment(rawValue: reason)) }
        defer { runTool("/bin/umount", [folder.path]) }

        let small = folder.appendingPathComponent("small.txt").path
        try OutputFile.write(Data("fits\n".utf8), to: small)
        let big = folder.appendingPathComponent("big.json").path
        #expect(throws: SnapPoemError.outputNotWritten(path: big, reason: "no space left on device")) {
            try OutputFile.write(Data(repeating: 0x41, count: 100_000), to: big)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["small.txt"])
        #expect(throws: SnapPoemError.self) {
            try OutputFile.write(Data(repeating: 0x41, count: 100_000), to: small, overwrite: true)
        }
        #expect(try String(contentsOfFile: small, encoding: .utf8) == "fits\n")
    }

    @Test("The input image is never the output, however it is spelled")
    func protectsInput() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("photo.png")
        try Data("image bytes".utf8).write(to: image)
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: image)
        for spelling in [image.path, folder.path + "/./photo.png", link.path] {
            #expect(throws: SnapPoemError.self) {
                try OutputFile.write(Data("poem".utf8), to: spelling, overwrite: true, protecting: [image.path])
            }
        }
        #expect(try Data(contentsOf: image) == Data("image bytes".utf8))
    }
}
