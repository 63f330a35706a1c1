import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// Poems for the exporter tests: small ones built by hand (every value known, so exports are
/// compared exactly) and the Lenore sample read once through the real pipeline.
enum ExportFixtures {
    /// A poem as the pipeline would build it from a page whose lines are `stanzas`: one block,
    /// one paragraph per stanza, words 20 px apart, lines 50 px apart, stanzas 100 px apart.
    /// The text goes through the real `OCRTextCleanup` (layout only) and `ReplacementSet`.
    static func poem(
        _ stanzas: [[String]],
        replacing replacements: [Replacement] = [],
        source: String = "poem.png",
        renderings: [PageRenderingFormat: String] = [:],
        timedOut: Bool = false
    ) -> ScannedPoem {
        var top = 10
        var paragraphs: [RecognizedParagraph] = []
        var confidence = 90.0
        for stanza in stanzas {
            var lines: [RecognizedLine] = []
            for line in stanza {
                var left = 10
                var words: [RecognizedWord] = []
                for word in line.split(separator: " ") {
                    let box = BoundingBox(left: left, top: top, right: left + 12 * word.count, bottom: top + 30)
                    words.append(RecognizedWord(text: String(word), confidence: confidence, boundingBox: box))
                    confidence = confidence == 97.25 ? 90.0 : confidence + 0.125
                    left = box.right + 20
                }
                lines.append(
                    RecognizedLine(
                        words: words, boundingBox: BoundingBox(left: 10, top: top, right: left - 20, bottom: top + 30), confidence: 91.5))
                top += 50
            }
            paragraphs.append(
                RecognizedParagraph(
                    lines: lines, boundingBox: BoundingBox(left: 10, top: lines.first?.boundingBox.top ?? top, right: 600, bottom: top - 20)
                ))
            top += 50
        }
        let page = RecognizedPage(
            text: stanzas.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"), meanConfidence: 92,
            blocks: [RecognizedBlock(paragraphs: paragraphs, boundingBox: BoundingBox(left: 10, top: 10, right: 600, bottom: top))],
            timedOut: timedOut, imageWidth: 640, imageHeight: top + 10, renderings: renderings)
        // The text as PoemLayout would ideally rebuild it; its geometric guess, and the OCR
        // repairs of the clean-up (| read as I, …), are tested elsewhere and must not decide
        // what these exporter tests expect.
        let recognizedText = OCRTextCleanup.layoutOnly.clean(stanzas.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))
        return ScannedPoem(
            source: source,
            imageFacts: ImageFacts(format: .jpeg, storedWidth: top + 10, storedHeight: 640, orientation: .right),
            recognizedWidth: 640, recognizedHeight: top + 10,
            preprocessing: PreprocessingOptions(scaling: .maxDimension(4000), filter: .blackAndWhite),
            preprocessingReport: PreprocessingReport(inputWidth: 640, inputHeight: top + 10, filter: .blackAndWhite),
            page: page, recognizedText: recognizedText,
            personalized: ReplacementSet(replacements).apply(to: recognizedText),
            timings: StageTimings(
                decode: .milliseconds(120), preprocess: .microseconds(37_500), recognize: .seconds(2) + .microseconds(461_263),
                personalize: .microseconds(5)))
    }

    /// A short two-stanza poem with a title, personalised Lenore → Alex.
    static let shortPoem = poem(
        [
            ["Lenore"], ["See! on yon bier low lies thy love, Lenore!", "Come! let the rite be read"],
            ["The sweet Lenore hath gone before"],
        ],
        replacing: [Replacement(find: "Lenore", replaceWith: "Alex")])

    /// Lenore.png read through the real pipeline with Lenore=Alex and Guy De Vere=Zoë, and
    /// every Tesseract rendering recorded. Scanned once, on first use, for all tests.
    static let lenore = Task<ScannedPoem, any Error> {
        var configuration = ScanConfiguration(
            replacements: ReplacementSet([
                Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "Guy De Vere", replaceWith: "Zoë"),
            ]))
        configuration.recognition.renderings = Set(PageRenderingFormat.allCases)
        let scanner = try await PoemScanner(configuration: configuration)
        return try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
    }

    /// Fixed e-mail headers, so drafts compare exactly.
    static let emailOptions = EmailDraftOptions(
        to: [try! EmailAddress(parsing: "Zoë Dupont <zoe@example.org>"), try! EmailAddress(parsing: "sam@example.org")],
        subject: "Un poème pour toi, mon cœur — with love from a photographed page of Poe",
        date: Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(identifier: "Europe/Paris")!,
        messageID: "0f6c1e2a-7b1d-4a51-9d0e-1c2b3a4d5e6f@snap-poem.invalid")
}

/// Runs a Python 3 script from the standard library only (the tests' independent parsers:
/// `email`, `html.parser`, `xml.etree`), feeding `input` on standard input.
enum Python {
    static func run(_ script: String, input: Data) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let result = try PipedProcess.run(process, input: input)
        guard result.status == 0 else {
            throw PythonFailure(message: String(decoding: result.error, as: UTF8.self))
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    struct PythonFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { "python3 failed: \(message)" }
    }

    /// Parses `document` as XML with `xml.etree` and prints the root's tag; throws when the
    /// document is not well-formed.
    static func xmlRootTag(_ document: Data) throws -> String {
        try run("import sys, xml.etree.ElementTree as E; print(E.fromstring(sys.stdin.buffer.read()).tag)", input: document)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Checks well-formedness with Foundation's own XML parser (libxml2), independently of Python.
func isWellFormedXML(_ data: Data) -> Bool {
    #if canImport(FoundationXML)
        let parser = FoundationXML.XMLParser(data: data)
    #else
        let parser = XMLParser(data: data)
    #endif
    return parser.parse()
}

#if canImport(FoundationXML)
    import FoundationXML
#endif
