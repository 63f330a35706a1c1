import Foundation
import SnapPoem
import Testing

@Suite("Export formats: names, extensions, dispatch")
struct ExportFormatTests {
    @Test(
        "The format is inferred from the output file's extension",
        arguments: [
            ("poem.txt", ExportFormat.text), ("poem.TEXT", .text), ("poem", .text), ("dir.d/poem", .text), (".hidden", .text),
            ("poem.md", .markdown), ("poem.markdown", .markdown), ("note.html", .html), ("note.HTM", .html),
            ("poem.json", .json), ("draft.eml", .eml), ("page.hocr", .hocr), ("words.tsv", .tsv),
            ("page.xml", .alto), ("page.alto", .alto), ("archive/page.alto.xml", .alto),
        ] as [(String, ExportFormat)])
    func inference(path: String, expected: ExportFormat) {
        #expect(ExportFormat.inferred(fromPath: path) == expected)
    }

    @Test("An unknown extension infers nothing", arguments: ["poem.doc", "poem.pdf", "poem.png", "poem.jsonl"])
    func unknownExtension(path: String) {
        #expect(ExportFormat.inferred(fromPath: path) == nil)
    }

    @Test("Every format's own extension infers it back", arguments: ExportFormat.allCases)
    func roundTrip(format: ExportFormat) {
        #expect(ExportFormat.inferred(fromPath: "poem." + format.fileExtension) == format)
    }

    @Test("The dispatcher returns the exporter of each format", arguments: ExportFormat.allCases)
    func dispatcher(format: ExportFormat) throws {
        let options = ExportOptions(email: ExportFixtures.emailOptions)
        #expect(try format.exporter(options: options).format == format)
    }

    @Test("An e-mail draft without date and Message-ID is refused, not invented")
    func emailNeedsOptions() {
        #expect(throws: SnapPoemError.self) { try ExportFormat.eml.exporter(options: ExportOptions()) }
    }

    @Test("Plain text is the personalised poem, byte for byte")
    func plainText() {
        let poem = ExportFixtures.shortPoem
        #expect(PlainTextExporter().export(poem) == Data(poem.text.utf8))
        #expect(
            poem.text
                == "Alex\n\nSee! on yon bier low lies thy love, Alex!\nCome! let the rite be read\n\nThe sweet Alex hath gone before\n")
    }

    @Test("Exports are pure: the same poem gives the same bytes", arguments: ExportFormat.allCases.filter { $0.requiredRendering == nil })
    func deterministic(format: ExportFormat) throws {
        let options = ExportOptions(email: ExportFixtures.emailOptions)
        let first = try ExportFixtures.shortPoem.exported(as: format, options: options)
        let second = try ExportFixtures.shortPoem.exported(as: format, options: options)
        #expect(first == second)
        #expect(!first.isEmpty)
    }
}

@Suite("Markdown export")
struct MarkdownExporterTests {
    @Test("Title as a heading, stanzas as paragraphs with hard line breaks")
    func structure() {
        let markdown = String(decoding: MarkdownExporter().export(ExportFixtures.shortPoem), as: UTF8.self)
        let expected =
            "# Alex\n\n" + "See! on yon bier low lies thy love, Alex!  \n" + "Come! let the rite be read\n\n"
            + "The sweet Alex hath gone before\n"
        #expect(markdown == expected)
    }

    @Test(
        "Markup characters in the poem are escaped",
        arguments: [
            ("*love* _you_", "\\*love\\* \\_you\\_"),
            ("# not a heading", "\\# not a heading"),
            ("- not a list", "\\- not a list"),
            ("+ not a list", "\\+ not a list"),
            ("> not a quote", "\\> not a quote"),
            ("1. not a list", "1\\. not a list"),
            ("1999) a year", "1999\\) a year"),
            ("[link](http://x)", "\\[link\\](http://x)"),
            ("<b>bold</b> & `code`", "\\<b\\>bold\\</b\\> \\& \\`code\\`"),
            ("a | b ~ c \\ d", "a \\| b \\~ c \\\\ d"),
            ("===", "\\==="),
            ("    indented", "\u{A0}\u{A0}\u{A0}\u{A0}indented"),
            ("ends with 1.", "ends with 1."),
            ("Pæan — “quoted”", "Pæan — “quoted”"),
        ])
    func escaping(line: String, expected: String) {
        let markdown = String(decoding: MarkdownExporter().export(ExportFixtures.poem([["x", line]])), as: UTF8.self)
        #expect(markdown == "x  \n" + expected + "\n", "line: \(line)")
    }

    @Test("Lenore.png: a heading and one paragraph per stanza of the ground truth")
    func lenore() async throws {
        let poem = try await ExportFixtures.lenore.value
        let markdown = String(decoding: MarkdownExporter().export(poem), as: UTF8.self)
        #expect(markdown.hasPrefix("# Alex\n\n"))
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        #expect(markdown.components(separatedBy: "\n\n").count == truth.components(separatedBy: "\n\n").count)
        let stanzas = truth.components(separatedBy: "\n\n").dropFirst()  // after the title
        let hardBreaks = stanzas.map { $0.split(separator: "\n").count - 1 }.reduce(0, +)
        #expect(markdown.components(separatedBy: "  \n").count - 1 == hardBreaks)
    }
}
