import Foundation
import Testing

/// Issue 18's replacement bombs on the command line: what the library refuses (a FIND over
/// 256 characters, with its line), and what it accepts but must still apply in bounded time
/// and memory (10 000 one-letter pairs), under the address-space limit that made the old
/// matcher abort.
@Suite("Replacement bombs on the command line: refused with the line, or applied in bounded memory")
struct ReplacementBoundsTests {
    static let stanza = Fixtures.sample("formats/stanza-rgb8.png")

    /// `count` CJK letters, distinct up to 20 000, from U+4E00 on.
    static func letters(_ count: Int, from start: Int = 0) -> [Character] {
        // Cycling through the 20 000 letters from U+4E00 (below the surrogates).
        (start..<start + count).map { Character(Unicode.Scalar(0x4E00 + $0 % 20_000)!) }
    }

    @Test(
        "A replacements file with one 81 000-letter FIND: exit 64 naming its line, no abort under ulimit -v 8000000",
        .enabled(if: Spawned.memoryLimitsUnavailable == nil, "AddressSanitizer's shadow memory does not fit under ulimit -v"))
    func longFindInFile() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pairs.txt").path
        let text = "# snap-poem replacements v1\nLenore=Alex\n" + String(Self.letters(81_000)) + "=x\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let run = try await Spawned.run([Self.stanza, "--replacements", path], memoryLimitKilobytes: 8_000_000, timeout: .seconds(120))
        #expect(run.signal == nil && !run.timedOut, "signal \(run.signal ?? 0)")
        #expect(run.status == 64, "\(run.error)")
        #expect(run.errorLines.first?.hasPrefix("snap-poem: error: \(path):3: FIND '") == true, "\(run.error)")
        #expect(run.errorLines.first?.hasSuffix("has 81000 characters; at most 256 are taken") == true, "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test("--replace with a FIND or a REPLACE over 256 characters is a usage error")
    func longReplaceArgument() async throws {
        for argument in [String(Self.letters(257)) + "=x", "Lenore=" + String(repeating: "y", count: 257)] {
            let run = try await Spawned.run([Self.stanza, "--replace", argument], timeout: .seconds(120))
            #expect(run.status == 64, "\(run.error)")
            #expect(run.error.contains("characters; at most 256 are taken"), "\(run.error)")
        }
    }

    @Test(
        "10 000 one-letter pairs are applied, under ulimit -v 8000000, in bounded memory",
        .enabled(if: Spawned.memoryLimitsUnavailable == nil, "AddressSanitizer's shadow memory does not fit under ulimit -v"))
    func tenThousandPairs() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pairs.txt").path
        let text = "# snap-poem replacements v1\nLenore=Alex\n" + Self.letters(9_999).map { "\($0)=x\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let run = try await Spawned.run(
            [Self.stanza, "--replacements", path, "--format", "text"], memoryLimitKilobytes: 8_000_000, timeout: .seconds(300))
        #expect(run.signal == nil && !run.timedOut, "signal \(run.signal ?? 0), timed out \(run.timedOut)")
        #expect(run.status == 0, "\(run.error.prefix(500))")
        #expect(String(decoding: run.output, as: UTF8.self).contains("thy love, Alex!"))
        #expect(run.peakMegabytes <= Spawned.memoryBound(400), "peak \(run.peakMegabytes) MiB")
    }
}
