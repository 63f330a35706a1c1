import Foundation
import SnapPoemTestSupport
import Testing

/// A 64 KiB tmpfs mounted on a temporary folder and filled to the last byte, so that any
/// write to a new file in it fails with ENOSPC: how the tests get a "disk full" without
/// touching `/dev/full` or any real disk. Needs root (mount), and is a `RootStep`, which only
/// make test-system takes; `unavailable` says why not.
final class TinyFileSystem {
    /// The mounted folder.
    let folder: URL
    private var mounted = false

    /// Why a full file system cannot be made here, or nil when it can (root, in make
    /// test-system).
    static var unavailable: String? { RootStep.unavailable }

    /// The trait of a test that needs one: skipped, saying why, where it cannot be made.
    static var required: ConditionTrait { .enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")) }

    /// Mounts and fills it, then frees `freeBytes` again (whole pages), so that exactly that
    /// much more can be written.
    init(freeBytes: Int = 0) throws {
        folder = try Fixtures.temporaryFolder()
        let result = Self.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0755", "tmpfs", folder.path])
        guard result == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mount -t tmpfs failed"])
        }
        mounted = true
        // Fill it: write until the file system says it is full.
        let filler = open(folder.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let block = [UInt8](repeating: 0x55, count: 4096)
        while filler >= 0, block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        if filler >= 0, freeBytes > 0 {
            var status = stat()
            if fstat(filler, &status) == 0 { _ = ftruncate(filler, max(0, status.st_size - off_t(freeBytes))) }
        }
        if filler >= 0 { close(filler) }
    }

    /// A path in the full file system; creating it works (tmpfs has inodes left), writing
    /// any byte to it fails.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Removes the filler: the file system has room again.
    func makeRoom() {
        unlink(folder.appendingPathComponent("filler").path)
    }

    deinit {
        if mounted { Self.tool("/bin/umount", [folder.path]) }
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    private static func tool(_ path: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
