import Foundation
import SnapPoem
import Testing

@testable import SnapPoemCLI

/// The manual page as `man` shows it: rendered by man-db and groff from the generated roff.
@Suite("The manual page renders with man -l and names every option --help lists")
struct ManualPageTests {
    /// The page rendered by `man -l` as plain text at 200 columns, and groff's warnings.
    static func rendered(_ page: String) async throws -> (text: String, warnings: String) {
        let man = try #require(ToolRun.find("man"), "man is missing: run 'make deps-package'")
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snap-poem.1")
        try Data(page.utf8).write(to: file)
        let environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "200", "MAN_KEEP_FORMATTING": "", "HOME": folder.path,
        ]
        let run = try await ToolRun.run(man, ["--warnings", "-E", "UTF-8", "-l", file.path], environment: environment)
        #expect(run.status == 0, "man -l: \(run.error)")
        return (run.output, run.error)
    }

    /// The sections of a rendered page: each heading (a line in capitals at the left margin)
    /// with the text under it.
    static func sections(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        var heading = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first.isUppercase, line == line.uppercased(), !line.contains("(") {
                heading = String(line)
                found[heading] = ""
            } else {
                found[heading, default: ""] += line + "\n"
            }
        }
        return found
    }

    /// The options a help text lists: `-r, --replace` and `--substring` at the start of its
    /// option lines.
    static func listedOptions(_ help: String) -> [String] {
        help.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /^  (-[a-zA-Z], |    )(--[a-z][a-z-]*)/) else { return nil }
            return (match.output.1 == "    " ? "" : String(match.output.1)) + String(match.output.2)
        }
    }

    static let page = InstalledFiles.manualPage(
        date: "2026-12-01", tessdataFolder: "/usr/share/snap-poem/tessdata", serviceUnit: "/usr/lib/systemd/system/snap-poem.service")

    @Test("man -l renders it without a warning, with the version and date, and lexgrog reads its NAME line")
    func rendersCleanly() async throws {
        let (text, warnings) = try await Self.rendered(Self.page)
        #expect(warnings.isEmpty, "groff or man warned: \(warnings)")
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("SNAP-POEM(1)") == true)
        #expect(lines.last?.contains("snap-poem \(SnapPoem.version)") == true)
        #expect(lines.last?.contains("2026-12-01") == true)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snap-poem.1")
        try Data(Self.page.utf8).write(to: file)
        let lexgrog = try #require(ToolRun.find("lexgrog"), "lexgrog is missing: run 'make deps-package'")
        let whatis = try await ToolRun.run(lexgrog, [file.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(whatis.output.contains("\"snap-poem - read a photographed poem and make it your own\""), "\(whatis.output)")
    }

    @Test("Every option snap-poem --help lists is in OPTIONS, every one of snap-poem serve --help in SERVE")
    func namesEveryOption() async throws {
        let (text, _) = try await Self.rendered(Self.page)
        let sections = Self.sections(text)
        let help = try await BinaryRun.run(["--help"])
        let serveHelp = try await BinaryRun.run(["serve", "--help"])
        #expect(help.status == 0 && serveHelp.status == 0)
        let options = Self.listedOptions(help.output)
        let serveOptions = Self.listedOptions(serveHelp.output)
        #expect(options.count == OptionSpec.all.count, "\(options)")
        #expect(serveOptions.count == ServeCommand.options.count, "\(serveOptions)")
        let optionsSection = try #require(sections["OPTIONS"])
        for option in options {
            // "-r, --replace FIND=REPLACE" as a paragraph's tag: at the start of its line.
            #expect(optionsSection.contains("\n       \(option)") || optionsSection.hasPrefix("       \(option)"), "\(option)")
        }
        let serveSection = try #require(sections["SERVE"])
        for option in serveOptions {
            #expect(serveSection.contains("\n       \(option)"), "serve \(option)")
        }
    }

    @Test("Exit codes, formats and examples have sections of their own, and --help's examples are among them")
    func exitCodesFormatsExamples() async throws {
        let (text, _) = try await Self.rendered(Self.page)
        let sections = Self.sections(text)
        for heading in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SERVE", "FORMATS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO",
        ] {
            #expect(sections[heading] != nil, "no section \(heading)")
        }
        let exitStatus = sections["EXIT STATUS"] ?? ""
        for code in ExitCode.allCases {
            #expect(
                exitStatus.contains("\n       \(code.rawValue) ") || exitStatus.hasPrefix("       \(code.rawValue) "),
                "exit \(code.rawValue)")
            #expect(exitStatus.contains(code.meaning), "\(code.meaning)")
        }
        let formats = sections["FORMATS"] ?? ""
        for format in ExportFormat.allCases {
            #expect(formats.contains("       \(format.rawValue) (.\(format.fileExtension)"), "format \(format.rawValue)")
        }
        #expect(formats.contains("       jsonl (.jsonl"))
        func normalised(_ text: String) -> String {
            text.replacingOccurrences(of: "\\\n", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let examples = normalised(sections["EXAMPLES"] ?? "")
        for helpText in [HelpText.render(), ServeCommand.help()] {
            let block = try #require(helpText.components(separatedBy: "EXAMPLES:\n").last)
            let lines = block.split(separator: "\n").prefix { $0.hasPrefix("  ") }.map(String.init)
            #expect(!lines.isEmpty)
            // A line ending in a backslash continues on the next.
            for example in lines.joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
                #expect(examples.contains(normalised(String(example))), "--help's example '\(example)' is not in EXAMPLES")
            }
        }
    }

    @Test("FILES names the installed models, and the unit when there is one; the placeholder when no folder is given")
    func filesSection() async throws {
        let files = Self.sections(try await Self.rendered(Self.page).text)["FILES"] ?? ""
        #expect(files.contains("/usr/share/snap-poem/tessdata"))
        #expect(files.contains("/usr/lib/systemd/system/snap-poem.service"))
        let plain = InstalledFiles.manualPage(date: "2026-12-01")
        let plainText = try await Self.rendered(plain).text
        #expect((Self.sections(plainText)["FILES"] ?? "").contains("PREFIX/share/snap-poem/tessdata"))
        #expect(!plainText.contains("systemd/system"))
    }

    @Test(
        "Roff escapes: dashes, backslashes, quotes, a leading dot, characters beyond ASCII",
        arguments: [
            ("--no-rotate", "\\-\\-no\\-rotate"), ("Write \\= for '='", "Write \\e= for \\(aq=\\(aq"), (".hidden", "\\&.hidden"),
            ("LENORE → ALEX", "LENORE \\[u2192] ALEX"), ("\"x\"", "\\(dqx\\(dq"),
        ])
    func escaping(text: String, expected: String) {
        #expect(Roff.escape(text) == expected)
    }
}
