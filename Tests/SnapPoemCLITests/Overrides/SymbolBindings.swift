import Foundation

/// What the dynamic linker bound while the executable ran (`LD_DEBUG=bindings`): how the
/// tests see that a library's call lands in snap-poem's own definition of a function.
struct SymbolBindings {
    /// The run itself.
    let run: BinaryRun
    /// The report's lines, such as "binding file …/liblept.so.5 [0] to …/snap-poem [0]:
    /// normal symbol `pixWriteMemPng'".
    let lines: [Substring]

    /// Runs `snap-poem ARGUMENTS` with the binding report on. The report goes to files
    /// (`LD_DEBUG_OUTPUT`, one per process): on standard error its megabytes would fill the
    /// pipe.
    static func record(_ arguments: [String]) async throws -> SymbolBindings {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "bindings"
        environment["LD_DEBUG_OUTPUT"] = folder.appendingPathComponent("bindings").path
        let run = try await BinaryRun.run(arguments, environment: environment)
        let report = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        return SymbolBindings(run: run, lines: Self.bindings(in: report))
    }

    /// The report's bindings, one each. Threads that bind at the same time (two engines
    /// reading one image's lines) can leave two reports on one line of the file, so the
    /// report is cut before every "binding file", not only at line ends.
    static func bindings(in report: String) -> [Substring] {
        report.split(separator: "\n").flatMap { line -> [Substring] in
            var pieces: [Substring] = []
            var rest = line[...]
            while let next = rest.dropFirst().range(of: "binding file ") {
                pieces.append(rest[..<next.lowerBound])
                rest = rest[next.lowerBound...]
            }
            pieces.append(rest)
            return pieces
        }
    }

    /// The report's lines about `symbol`.
    func lines(about symbol: String) -> [Substring] { lines.filter { $0.contains("`\(symbol)'") } }

    /// Whether a library whose path contains `library` had `symbol` bound to the executable.
    func bindsToExecutable(_ symbol: String, from library: String) -> Bool {
        lines(about: symbol).contains { line in
            let sides = line.components(separatedBy: " to ")
            return sides.count >= 2 && sides[0].contains(library) && sides[1].hasPrefix(BinaryRun.executable.path + " ")
        }
    }
}
