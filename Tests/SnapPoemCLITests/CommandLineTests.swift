import Foundation
import Synchronization
import Testing

@testable import SnapPoemCLI

/// Runs the command in-process and captures what it writes.
struct CapturedRun {
    let status: Int32
    let output: String
    let error: String

    static func run(_ arguments: [String]) async -> CapturedRun {
        let output = Mutex(Data()), error = Mutex("")
        let console = Console(
            writeOutput: { data in output.withLock { $0.append(data) } },
            writeError: { text in error.withLock { $0 += text } },
            errorIsTerminal: false)
        let status = await SnapPoemCommand.run(arguments, console: console)
        return CapturedRun(
            status: status,
            output: String(decoding: output.withLock { $0 }, as: UTF8.self),
            error: error.withLock { $0 })
    }
}

@Suite("Command-line parsing and usage errors")
struct CommandLineTests {
    @Test("An unknown option is a usage error with a suggestion, exit 64")
    func unknownOption() async {
        let result = await CapturedRun.run(["Lenore.png", "--outptu", "x.txt"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("snap-poem: error: Unknown option '--outptu'. Did you mean '--output'?\n"))
        #expect(result.error.contains("See 'snap-poem --help'."))
    }

    @Test(
        "Bad values are usage errors, exit 64",
        arguments: [
            ["Lenore.png", "--max-dimension", "abc"],
            ["Lenore.png", "--max-dimension", "3"],
            ["Lenore.png", "--timeout", "-1"],
            ["Lenore.png", "--max-marks", "0"],
            ["Lenore.png", "--max-marks", "many"],
            ["Lenore.png", "--psm", "99"],
            ["Lenore.png", "--filter", "sepia"],
            ["Lenore.png", "--replace", "Lenore"],
            ["Lenore.png", "--replace", "=Alex"],
            ["Lenore.png", "--lang", "eng+"],
            ["Lenore.png", "--lang", "osd"],
            ["Lenore.png", "--region", "1,0,9223372036854775807,1"],
            ["Lenore.png", "--region", "0,0,0,10"],
            ["Lenore.png", "--output"],
            ["--help=yes"],
            [],
        ])
    func badValues(arguments: [String]) async {
        let result = await CapturedRun.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.error)")
        #expect(result.error.hasPrefix("snap-poem: error: "))
        #expect(result.output.isEmpty)
    }

    @Test("--help lists every option and every exit code")
    func help() async {
        let result = await CapturedRun.run(["--help"])
        #expect(result.status == 0)
        for spec in OptionSpec.all {
            #expect(result.output.contains("--\(spec.long)"), "--\(spec.long) missing from help")
        }
        for code in ExitCode.allCases {
            #expect(result.output.contains("  \(code.rawValue) "), "exit code \(code.rawValue) missing from help")
        }
        #expect(result.error.isEmpty)
    }

    @Test("--version names snap-poem, Tesseract and Leptonica")
    func version() async {
        let result = await CapturedRun.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("snap-poem 0."))
        #expect(result.output.contains("Tesseract 5."))
        #expect(result.output.contains("Leptonica 1."))
    }

    @Test("Options are parsed in all their spellings")
    func spellings() throws {
        let parsed = try ParsedArguments.parse(["-o", "a.txt", "--replace=A=B", "-rC=D", "--", "-weird.png", "-"])
        #expect(parsed.values["output"] == ["a.txt"])
        #expect(parsed.values["replace"] == ["A=B", "C=D"])
        #expect(parsed.positionals == ["-weird.png", "-"])
    }
}
