import Foundation
import SnapPoem
import SnapPoemServer
import SnapPoemService
import Testing

@testable import SnapPoemCLI

@Suite("What each option's value may be: one entry per option that takes a value, every word one the parser takes")
struct OptionValueTests {
    @Test("Every option of snap-poem and of serve that takes a value has an entry, and no entry names another")
    func everyOptionIsDescribed() {
        for (specs, values, name) in [
            (OptionSpec.all, OptionValue.scan, "snap-poem"), (ServeCommand.options, OptionValue.serve, "snap-poem serve"),
        ] {
            let takingValues = Set(specs.filter(\.takesValue).map(\.long))
            #expect(Set(values.keys) == takingValues, "\(name): describe exactly the options that take a value in OptionValue")
        }
    }

    @Test("Every word offered for an option of snap-poem is one the parser accepts")
    func scanWordsAreAccepted() throws {
        for (long, value) in OptionValue.scan {
            for word in value.words {
                let arguments = ["poem.png", "--\(long)", word]
                do {
                    _ = try CommandOptions(try ParsedArguments.parse(arguments))
                } catch {
                    Issue.record("'--\(long) \(word)' is offered but refused: \(error.message)")
                }
            }
        }
    }

    @Test("Every word offered for an option of serve is one its parser accepts")
    func serveWordsAreAccepted() throws {
        for (long, value) in OptionValue.serve {
            for word in value.words {
                var service = ServiceConfiguration()
                var server = ServerConfiguration()
                do {
                    try ServeCommand.bind(
                        try ParsedArguments.parse(["--\(long)", word], specs: ServeCommand.options), service: &service, server: &server)
                } catch {
                    Issue.record("'serve --\(long) \(word)' is offered but refused: \(error.message)")
                }
            }
        }
    }

    @Test("The offered formats, page segmentation modes and levels are the library's whole lists")
    func listsComeFromTheLibrary() {
        #expect(OptionValue.scan["format"]?.words == ["text", "markdown", "html", "json", "jsonl", "eml", "hocr", "tsv", "alto"])
        #expect(Set(OptionValue.formats.map(\.word)) == Set(ExportFormat.allCases.map(\.rawValue) + ["jsonl"]))
        let modes = OptionValue.scan["psm"]?.words ?? []
        for mode in PageSegmentationMode.allCases {
            #expect(modes.contains(mode.name) && modes.contains(String(mode.rawValue)), "\(mode)")
        }
        #expect(OptionValue.scan["strictness"]?.words == Strictness.named.map(\.name))
        #expect(OptionValue.scan["filter"]?.words == ImageFilter.allCases.map(\.rawValue))
        #expect(OptionValue.scan["oem"]?.words == EngineMode.allCases.map(\.rawValue))
        #expect(OptionValue.image.extensions == BatchInput.imageExtensions.sorted())
    }

    @Test(
        "A one-line summary of each option's help",
        arguments: [
            ("replace", "Replace FIND with REPLACE, also where the OCR misread it"),
            ("filter", "Tone filter: flatten, adaptive, black-and-white, none"),
            ("psm", "Page segmentation mode, by number or name, e.g. 3 or auto, 6 or single-block"),
            ("format", "Output format: text, markdown, html, json, jsonl, eml, hocr, tsv or alto"),
            ("force", "Overwrite an existing output file"),
        ])
    func summary(long: String, expected: String) throws {
        #expect(try #require(OptionSpec.named(long)).summary == expected)
    }
}
