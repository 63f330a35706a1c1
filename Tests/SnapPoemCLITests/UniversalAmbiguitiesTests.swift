import Foundation
import Testing

@testable import SnapPoem

/// The executable's LSTM-only engines skip Tesseract's universal ambiguity table
/// (`Sources/CTesseractShim/UniversalAmbiguities.cpp`), and read exactly as engines that
/// parse it: the test process does not export the function, so its in-process scanner loads
/// the table as Tesseract always does.
@Suite("The legacy engine's ambiguity table is not parsed by LSTM-only engines, in the executable only")
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

    @Test(
        "Without the table the executable reads every word, and its confidence, as an engine with it",
        arguments: ["Lenore.png", "chanson-d-automne.png", "photo-blurred.jpg"])
    func sameReading(sample: String) async throws {
        let run = try await BinaryRun.run([Fixtures.sample(sample), "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let recognition = try #require(document["recognition"] as? [String: Any])
        let lines = try #require(recognition["lines"] as? [[String: Any]])
        let executableWords = lines.flatMap { ($0["words"] as? [[String: Any]]) ?? [] }.map {
            (text: $0["text"] as? String ?? "", confidence: $0["confidence"] as? Double ?? -1)
        }

        let poem = try await PoemScanner.scan(fileAt: URL(fileURLWithPath: Fixtures.sample(sample)))
        let libraryWords = poem.page.words.filter { $0.text.contains { !$0.isWhitespace } }
        #expect(executableWords.count > 10, "\(sample): \(executableWords.count) words")
        #expect(executableWords.map(\.text) == libraryWords.map(\.text), "\(sample)")
        for (fromExecutable, fromLibrary) in zip(executableWords, libraryWords) {
            // The JSON rounds confidences to two decimals.
            #expect(abs(fromExecutable.confidence - fromLibrary.confidence) <= 0.006, "\(sample): \(fromLibrary.text)")
        }
        #expect(document["originalText"] as? String == poem.recognizedText, "\(sample)")
    }
}
