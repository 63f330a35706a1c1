import Foundation
import SnapPoem
import Testing

@Suite("The --replacements file format, version 1")
struct ReplacementsFileTests {
    @Test("A documented example parses to its pairs")
    func example() throws {
        let contents = """
            # snap-poem replacements v1
            # The muse and her mourner.
            Lenore = Alex

            Guy De Vere=Sam
              # indented comment
            a\\=b = c=d
            \\#1 = first
            back\\\\slash=\\
            Hope=

            """
        let pairs = try ReplacementsFile.parse(contents, path: "names.txt")
        #expect(
            pairs == [
                Replacement(find: "Lenore", replaceWith: "Alex"),
                Replacement(find: "Guy De Vere", replaceWith: "Sam"),
                Replacement(find: "a=b", replaceWith: "c=d"),
                Replacement(find: "#1", replaceWith: "first"),
                Replacement(find: "back\\slash", replaceWith: "\\"),
                Replacement(find: "Hope", replaceWith: ""),
            ])
    }

    @Test(
        "Mistakes name the line and what is wrong",
        arguments: [
            ("Lenore=Alex\n", 1, "the first line must be '# snap-poem replacements v1'"),
            ("", 1, "the first line must be '# snap-poem replacements v1'"),
            (
                "# snap-poem replacements v2\nLenore=Alex\n", 1,
                "version 2 is not supported; this snap-poem reads version 1 ('# snap-poem replacements v1')"
            ),
            ("# snap-poem replacements v1\n\nLenore\n", 3, "'Lenore' has no '='; write FIND=REPLACE, e.g. Lenore=Alex"),
            ("# snap-poem replacements v1\n=Alex\n", 2, "'=Alex' has nothing to find before '='"),
            ("# snap-poem replacements v1\n  = Alex\n", 2, "'= Alex' has nothing to find before '='"),
            ("# snap-poem replacements v1\nLenore=Alex\n# x\nLenore=Sam\n", 4, "'Lenore' is already replaced on line 2"),
        ])
    func mistakes(contents: String, line: Int, reason: String) {
        #expect(throws: SnapPoemError.invalidReplacementsFile(path: "names.txt", line: line, reason: reason)) {
            try ReplacementsFile.parse(contents, path: "names.txt")
        }
    }

    @Test("A byte-order mark, CRLF line ends and trailing spaces are accepted")
    func tolerantReading() throws {
        let pairs = try ReplacementsFile.parse("\u{FEFF}# snap-poem replacements v1  \r\nLenore=Alex\r\n", path: "x")
        #expect(pairs == [Replacement(find: "Lenore", replaceWith: "Alex")])
    }

    @Test("Messages quote at most 60 characters of a line, however long it is")
    func longLines() {
        let million = String(repeating: "x", count: 1_000_000)
        let shown = String(repeating: "x", count: 60) + "…"
        let cases: [(String, Int, String)] = [
            (million, 2, "'\(shown)' has no '='; write FIND=REPLACE, e.g. Lenore=Alex"),
            ("  =" + million, 2, "'=\(String(repeating: "x", count: 59))…' has nothing to find before '='"),
            // A FIND given twice, of 200 characters (a length that is taken).
            ("\(million.prefix(200))=a\n\(million.prefix(200))=b", 3, "'\(shown)' is already replaced on line 2"),
            // One character (a letter and a million combining marks) is cut between scalars.
            (
                "e" + String(repeating: "\u{301}", count: 1_000_000), 2,
                "'e\(String(repeating: "\u{301}", count: 59))…' has no '='; write FIND=REPLACE, e.g. Lenore=Alex"
            ),
        ]
        for (line, number, reason) in cases {
            #expect(throws: SnapPoemError.invalidReplacementsFile(path: "names.txt", line: number, reason: reason)) {
                try ReplacementsFile.parse("# snap-poem replacements v1\n\(line)\n", path: "names.txt")
            }
        }
        #expect(
            throws: SnapPoemError.invalidOption(option: "replace", reason: "'\(shown)' has no '='; write FIND=REPLACE, e.g. Lenore=Alex")
        ) {
            try Replacement(parsing: million)
        }
    }

    @Test("Only LF ends a line: U+2028, U+2029, U+0085, VT and FF are characters of the value")
    func lineEnds() throws {
        let separators = "\u{2028}\u{2029}\u{85}\u{0B}\u{0C}"
        let pairs = try ReplacementsFile.parse(
            "# snap-poem replacements v1\r\nLenore=Al\u{2028}ex\r\nGuy\(separators)=Sam\(separators)\n", path: "x")
        #expect(
            pairs == [
                Replacement(find: "Lenore", replaceWith: "Al\u{2028}ex"),
                Replacement(find: "Guy\(separators)", replaceWith: "Sam\(separators)"),
            ])
        // The line an editor shows.
        #expect(
            throws: SnapPoemError.invalidReplacementsFile(
                path: "x", line: 3, reason: "'Hope' has no '='; write FIND=REPLACE, e.g. Lenore=Alex")
        ) { try ReplacementsFile.parse("# snap-poem replacements v1\nLenore=Al\u{2028}ex\(separators)\nHope\n", path: "x") }
        // A file whose lines end in CR alone is one line: said so, not 'the first line must be …'.
        #expect(
            throws: SnapPoemError.invalidReplacementsFile(
                path: "x", line: 1, reason: "its lines end in a carriage return alone (old Mac OS); save it with LF or CRLF line ends")
        ) { try ReplacementsFile.parse("# snap-poem replacements v1\rLenore=Alex\r", path: "x") }
    }

    @Test("render writes what parse reads back")
    func roundTrip() throws {
        let pairs = [
            Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "a=b", replaceWith: "c=d"),
            Replacement(find: "#tag", replaceWith: "x"), Replacement(find: "back\\slash", replaceWith: "y"),
            Replacement(find: "Lénore", replaceWith: "Zoé"),
        ]
        #expect(try ReplacementsFile.parse(ReplacementsFile.render(pairs), path: "x") == pairs)
    }

    @Test("Files: read from disk; missing, a folder, or not UTF-8 are errors")
    func files() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("names.txt")
        try Data("# snap-poem replacements v1\nLenore=Alex\n".utf8).write(to: good)
        #expect(try ReplacementsFile.load(path: good.path) == [Replacement(find: "Lenore", replaceWith: "Alex")])

        let missing = folder.appendingPathComponent("missing.txt").path
        #expect(throws: SnapPoemError.fileNotFound(path: missing)) { try ReplacementsFile.load(path: missing) }
        #expect(throws: SnapPoemError.unreadableFile(path: folder.path, reason: "it is a directory")) {
            try ReplacementsFile.load(path: folder.path)
        }
        let latin1 = folder.appendingPathComponent("latin1.txt")
        try Data("# snap-poem replacements v1\nL\u{E9}nore=Alex\n".data(using: .isoLatin1)!).write(to: latin1)
        #expect(throws: SnapPoemError.invalidReplacementsFile(path: latin1.path, line: 2, reason: "not UTF-8 text")) {
            try ReplacementsFile.load(path: latin1.path)
        }
    }
}
