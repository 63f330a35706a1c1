import Foundation
import SnapPoem
import Testing

@testable import SnapPoemCLI

/// Binds a command line (an image path is added first).
private func options(_ arguments: [String]) throws -> CommandOptions {
    try CommandOptions(try ParsedArguments.parse(["poem.png"] + arguments))
}

/// A replacements file in a fresh folder, removed by the caller with the folder.
private func replacementsFile(_ contents: String) throws -> (folder: URL, path: String) {
    let folder = try Fixtures.temporaryFolder()
    let path = folder.appendingPathComponent("names.txt").path
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return (folder, path)
}

@Suite("Personalisation options on the command line")
struct PersonaliseCommandTests {
    @Test("Defaults: case-sensitive, whole words, OCR-tolerant (normal), clean-up on, no report")
    func defaults() throws {
        let bound = try options(["--replace", "Lenore=Alex"])
        #expect(bound.scan.replacements == ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]))
        #expect(bound.scan.replacements.options == MatchingOptions(caseSensitive: true, wholeWords: true, strictness: .normal))
        #expect(bound.scan.cleanup == .standard)
        #expect(!bound.report)
    }

    @Test(
        "Each flag sets its option",
        arguments: [
            (["--ignore-case"], MatchingOptions(caseSensitive: false)),
            (["-i"], MatchingOptions(caseSensitive: false)),
            (["--substring"], MatchingOptions(wholeWords: false)),
            (["--exact"], MatchingOptions(strictness: .exact)),
            (["--strictness", "strict"], MatchingOptions(strictness: .strict)),
            (["--strictness=loose"], MatchingOptions(strictness: .loose)),
            (["--strictness", "exact"], MatchingOptions(strictness: .exact)),
            (["-i", "--substring", "--exact"], MatchingOptions(caseSensitive: false, wholeWords: false, strictness: .exact)),
        ])
    func flags(arguments: [String], expected: MatchingOptions) throws {
        #expect(try options(["-r", "Lenore=Alex"] + arguments).scan.replacements.options == expected)
    }

    @Test("--no-cleanup and --report")
    func cleanupAndReport() throws {
        let bound = try options(["--no-cleanup", "--report"])
        #expect(bound.scan.cleanup == .layoutOnly)
        #expect(bound.report)
    }

    @Test("--replacements reads its pairs before those of --replace; identical repeats are kept once")
    func replacementsFileOption() throws {
        let file = try replacementsFile("# snap-poem replacements v1\nLenore = Alex\nGuy De Vere=Sam\n")
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let bound = try options(["--replace", "Hope=Faith", "--replacements", file.path, "-r", "Lenore=Alex"])
        #expect(
            bound.scan.replacements.replacements == [
                Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "Guy De Vere", replaceWith: "Sam"),
                Replacement(find: "Hope", replaceWith: "Faith"),
            ])
    }

    @Test(
        "Mistakes are usage errors with an exact message, exit 64",
        arguments: [
            (["--strictness", "fuzzy"], "Invalid value 'fuzzy' for '--strictness <LEVEL>': expected one of exact, strict, normal, loose."),
            (["--strictness", "loose", "--exact"], "'--strictness loose' cannot be combined with '--exact'."),
            (
                ["-r", "Lenore=Alex", "-r", "Lenore=Sam"],
                "'Lenore' is replaced twice, by 'Alex' (--replace Lenore=Alex) and by 'Sam' (--replace Lenore=Sam)."
            ),
            (["-r", "Lenore"], "Invalid value: --replace: 'Lenore' has no '='; write FIND=REPLACE, e.g. Lenore=Alex."),
            (["--replacements", "/nonexistent/names.txt"], "/nonexistent/names.txt: no such file"),
            (["--report=yes"], "'--report' takes no value."),
        ])
    func mistakes(arguments: [String], message: String) async {
        let result = await CapturedRun.run(["poem.png"] + arguments)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("snap-poem: error: \(message)\n"), "\(result.error)")
    }

    @Test("A broken replacements file names its line, exit 64")
    func brokenFile() async throws {
        let file = try replacementsFile("# snap-poem replacements v1\nLenore=Alex\nHope\n")
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let result = await CapturedRun.run(["poem.png", "--replacements", file.path])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("snap-poem: error: \(file.path):3: 'Hope' has no '='; write FIND=REPLACE, e.g. Lenore=Alex\n"))
    }

    @Test("--report lists each change on standard error; the poem alone goes to standard output")
    func report() async throws {
        let result = await CapturedRun.run([Fixtures.sample("Lenore.png"), "-r", "Lenore=Alex", "-r", "Guy De Vere=Sam", "--report"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Alex\n\n"))
        #expect(!result.output.contains("report"))
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "snap-poem: report: \(Fixtures.sample("Lenore.png")): 4 replacements")
        let expected = [
            "  line 1, column 1: 'Lenore' → 'Alex' (exact, OCR confidence ",
            "  line 5, column 6: 'Guy De Vere' → 'Sam' (exact, OCR confidence ",
            "  line 6, column 53: 'Lenore' → 'Alex' (exact, OCR confidence ",
            "  line 19, column 11: 'Lenore' → 'Alex' (exact, OCR confidence ",
        ]
        #expect(lines.count == 6, "\(result.error)")
        for (line, prefix) in zip(lines.dropFirst(), expected) {
            #expect(line.hasPrefix(prefix) && line.hasSuffix("%)"), "\(line)")
        }
        #expect(lines.last == "")
    }

    @Test("The report's line for a tolerant, hyphenated change escapes the line break")
    func describeChange() {
        let change = TextChange(
            line: 19, column: 11, original: "Len-\nore", replacement: "Alex", find: "Lenore", kind: .ocrTolerant, confidence: 57.6)
        #expect(PoemDiagnostics.describe(change) == "line 19, column 11: 'Len-\\nore' → 'Alex' (OCR-tolerant, OCR confidence 58%)")
        let unknown = TextChange(line: 1, column: 1, original: "LENORE", replacement: "ALEX", find: "Lenore", kind: .caseInsensitive)
        #expect(PoemDiagnostics.describe(unknown) == "line 1, column 1: 'LENORE' → 'ALEX' (ignoring case, OCR confidence unknown)")
    }

    @Test("A FIND that matches nothing warns on standard error with the closest word; exit stays 0")
    func unmatchedWarning() async {
        let result = await CapturedRun.run([Fixtures.sample("Lenore.png"), "-r", "Lenore=Alex", "-r", "Lenora=Sam", "-r", "Zyxwvut=Q"])
        #expect(result.status == 0)
        #expect(
            result.error == """
                snap-poem: warning: 'Lenora' not found; closest: 'Lenore' on line 1
                snap-poem: warning: 'Zyxwvut' not found

                """)
        #expect(result.output.hasPrefix("Alex\n"))
    }
}

@Suite("Personalisation, run as a user would")
struct PersonaliseEndToEndTests {
    @Test("A photo read imperfectly: both Lenores replaced, the report on stderr, stdout clean")
    func imperfectPhoto() async throws {
        let result = try await BinaryRun.run([Fixtures.sample("photo-jpeg-artefacts.jpg"), "--replace", "Lenore=Alex", "--report"])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.contains("Lenore"))
        #expect(result.output.components(separatedBy: "Alex").count - 1 == 2)
        #expect(!result.output.contains("snap-poem"))
        #expect(result.error.hasPrefix("snap-poem: report: \(Fixtures.sample("photo-jpeg-artefacts.jpg")): 2 replacements\n"))
        #expect(result.error.contains("  line 6, column 53: 'Lenore' → 'Alex' (exact, OCR confidence "))
    }

    @Test("A replacements file, case ignored, and a swap")
    func fileAndSwap() async throws {
        let file = try replacementsFile("# snap-poem replacements v1\n# the names\nlenore=alex\nhope = grief\ngrief = hope\n")
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let result = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "--replacements", file.path, "--ignore-case"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.hasPrefix("Alex\n"))
        #expect(result.output.contains("with Grief, that flew beside"))
        #expect(result.output.contains("From hope and groan"))
    }
}
