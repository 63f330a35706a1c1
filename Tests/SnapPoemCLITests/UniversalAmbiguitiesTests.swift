import Foundation
import Testing

/// The executable's LSTM-only engines skip Tesseract's universal ambiguity table
/// (`Sources/CTesseractShim/UniversalAmbiguities.cpp`): libtesseract's call lands in
/// snap-poem's definition. That the reading is the same is checked in-process
/// (`UniversalAmbiguitiesReadingTests`).
@Suite("The legacy engine's ambiguity table is not parsed by the executable's LSTM-only engines")
struct UniversalAmbiguitiesTests {
    static let symbol = "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"

    @Test("libtesseract's call to UnicharAmbigs::LoadUniversal lands in snap-poem's own definition")
    func interpositionHolds() async throws {
        // The binding report goes to a file (LD_DEBUG_OUTPUT): on standard error its megabytes
        // would fill a pipe.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "bindings"
        environment["LD_DEBUG_OUTPUT"] = folder.appendingPathComponent("bindings").path
        let run = try await BinaryRun.run([Fixtures.sample("Lenore.png")], environment: environment)
        #expect(run.status == 0, "\(run.error.suffix(2000))")
        let report = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        let bindings = report.split(separator: "\n").filter { $0.contains("`\(Self.symbol)'") }
        #expect(
            bindings.contains { line in
                let sides = line.components(separatedBy: " to ")
                return sides.count == 2 && sides[0].contains("libtesseract") && sides[1].hasPrefix(BinaryRun.executable.path + " ")
            },
            "\(bindings.prefix(3).joined(separator: "\n"))")
    }
}
