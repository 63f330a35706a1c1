import Foundation
import SnapPoem

/// The desktop clipboard, reached through the first tool that can serve this session:
/// `wl-copy` under Wayland (`WAYLAND_DISPLAY`), else `xclip` or `xsel` under X11 (`DISPLAY`).
struct Clipboard: Sendable, Equatable {
    /// The tool's path.
    let executable: String
    /// Its arguments for "copy standard input to the clipboard".
    let arguments: [String]

    /// Why copying cannot be done; `message` is the line printed after `snap-poem: error: `.
    enum Failure: Error, Equatable {
        /// None of the tools is installed.
        case noTool
        /// A tool is installed but there is no display session to put the text in.
        case noDisplay(tools: [String])
        /// The tool could not be started or reported a failure.
        case toolFailed(tool: String, reason: String)

        var message: String {
            switch self {
            case .noTool:
                "--copy: no clipboard tool found (install wl-clipboard, xclip or xsel)"
            case .noDisplay(let tools):
                "--copy: \(tools.joined(separator: ", ")) found, but there is no display to copy to (neither WAYLAND_DISPLAY nor DISPLAY is set)"
            case .toolFailed(let tool, let reason):
                "--copy: \(tool) failed (\(reason)); nothing was copied"
            }
        }
    }

    /// Finds the tool for the session described by `environment` (`PATH`, `WAYLAND_DISPLAY`,
    /// `DISPLAY`).
    static func find(in environment: [String: String]) -> Result<Clipboard, Failure> {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        func locate(_ name: String) -> String? {
            folders.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let hasWayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let hasX11 = !(environment["DISPLAY"] ?? "").isEmpty
        let candidates: [(name: String, arguments: [String], usable: Bool)] = [
            ("wl-copy", [], hasWayland),
            ("xclip", ["-selection", "clipboard"], hasX11),
            ("xsel", ["--clipboard", "--input"], hasX11),
        ]
        var installed: [String] = []
        for candidate in candidates {
            guard let path = locate(candidate.name) else { continue }
            if candidate.usable { return .success(Clipboard(executable: path, arguments: candidate.arguments)) }
            installed.append(candidate.name)
        }
        return .failure(installed.isEmpty ? .noTool : .noDisplay(tools: installed))
    }

    /// Hands `data` to the tool and waits for it to finish, on a Dispatch thread: starting a
    /// process and waiting for it blocks, which must not happen on Swift's cooperative pool.
    func copy(_ data: Data) async throws(Failure) {
        try await offload { () throws(Failure) in try copyBlocking(data) }
    }

    /// Hands `data` to the tool on its standard input and waits for it to finish. Blocks.
    ///
    /// The data goes through an unnamed temporary file rather than a pipe, so a tool that
    /// exits without reading cannot kill snap-poem with SIGPIPE. The tool's own output is
    /// discarded: `xclip` and `wl-copy` leave a process behind that serves the clipboard and
    /// would keep a pipe open forever. The tool is started with `posix_spawn` and the
    /// default signal handling and mask (snap-poem itself ignores SIGPIPE and blocks
    /// SIGINT, which a child would otherwise inherit).
    func copyBlocking(_ data: Data) throws(Failure) {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        var template = Array((FileManager.default.temporaryDirectory.path + "/snap-poem-clipboard-XXXXXX").utf8CString)
        // The path is used only inside the closure that owns the buffer (mkstemp fills it in).
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let path = buffer.baseAddress else { return -1 }
            let opened = mkstemp(path)
            if opened >= 0 { unlink(path) }
            return opened
        }
        guard descriptor >= 0 else { throw .toolFailed(tool: name, reason: "no temporary file: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        if let problem = DescriptorWriter.write(data, to: descriptor) {
            throw .toolFailed(tool: name, reason: "could not buffer the text: \(problem)")
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .toolFailed(tool: name, reason: "could not buffer the text: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            throw .toolFailed(tool: name, reason: "could not start it: \(String(cString: strerror(spawned)).lowercased())")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .toolFailed(tool: name, reason: "could not wait for it") }
        }
        let signal = status & 0x7F
        guard signal == 0 else { throw .toolFailed(tool: name, reason: "ended by signal \(signal)") }
        let exitStatus = (status >> 8) & 0xFF
        guard exitStatus == 0 else { throw .toolFailed(tool: name, reason: "exit status \(exitStatus)") }
    }
}
