import Foundation
import Testing

@testable import SnapPoem

@Suite("One export request for every front end: its rules, its scan, and the pure render")
struct ExportRequestTests {
    static let stamp = DraftStamp(
        date: Date(timeIntervalSince1970: 1_700_000_000), messageID: "0f6c1e2a-7b1d-4a51-9d0e-1c2b3a4d5e6f@snap-poem.invalid")

    @Test(
        "The shared rules refuse what does not combine, in one order",
        arguments: [
            (
                [ExportOption.format: "pdf"],
                ExportOptionError.invalidValue(
                    option: .format, value: "pdf", expected: "one of text, markdown, html, json, eml, hocr, tsv, alto")
            ),
            ([.to: "a@b.org"], .notApplicable(option: .to)),
            ([.format: "html", .subject: "Hi"], .notApplicable(option: .subject)),
            ([.sideBySide: ""], .notApplicable(option: .sideBySide)),
            (
                [.format: "eml", .to: "alex"],
                .rejected(
                    option: .to, error: .invalidOption(option: "to", reason: "'alex' is not an e-mail address like name@example.org"))
            ),
        ] as [([ExportOption: String], ExportOptionError)])
    func refusals(values: [ExportOption: String], error: ExportOptionError) {
        var request = ExportRequest()
        #expect(throws: error) { try request.apply(values) }
    }

    @Test("The request asks its scan for what it needs and takes the scan's language")
    func prepare() throws {
        var request = ExportRequest(format: .hocr)
        request.images = [.preprocessed, .annotated]
        var scan = ScanConfiguration()
        scan.engine.languages = try LanguageSet(parsing: "fra+eng")
        request.prepare(&scan)
        #expect(scan.recognition.renderings == [.hocr])
        #expect(scan.keepsPreprocessedImage && scan.keepsUprightImage)
        #expect(request.languageTag == "fr")
        var link = ExportRequest(format: .tsv)
        link.mailtoLink = true
        var plain = ScanConfiguration()
        link.prepare(&plain)
        #expect(plain.recognition.renderings.isEmpty, "a mailto: link needs no rendering")
    }

    @Test("render is pure: the same poem, request and stamp give the same bytes and diagnostics")
    func pure() {
        var request = ExportRequest(format: .eml)
        request.listsChanges = true
        let poem = ExportFixtures.shortPoem
        let first = request.render(poem, stamp: Self.stamp)
        #expect(first == request.render(poem, stamp: Self.stamp))
        #expect(first.document == (try? poem.exported(as: .eml, options: request.exportOptions(stamp: Self.stamp))))
        #expect(first.diagnostics.map(\.severity) == [.report])
        #expect(first.diagnostics.first?.text == "poem.png: 3 replacements")
    }

    @Test("The diagnostics name the poem, and the time limit's warning carries its category")
    func diagnostics() {
        var poem = ExportFixtures.poem(
            [["Ah, broken is the golden bowl"]], replacing: [Replacement(find: "Lenore", replaceWith: "Alex")], timedOut: true)
        poem.timeLimit = .milliseconds(2500)
        var request = ExportRequest()
        request.namesPoemInReplacementWarnings = true
        let rendered = request.render(poem, stamp: Self.stamp)
        #expect(
            rendered.diagnostics.map(\.text) == [
                "poem.png: 'Lenore' not found", "poem.png: time limit of 2.5 s reached; the text is partial",
            ])
        #expect(rendered.diagnostics.last?.category == .timeLimit)
        #expect(rendered.diagnostics.contains(Diagnostic(.warning, "'Lenore' not found", subject: "poem.png")))
        request.namesPoemInReplacementWarnings = false
        #expect(request.render(poem, stamp: Self.stamp).diagnostics.contains(Diagnostic(.warning, "'Lenore' not found")))
    }

    @Test("A document that cannot be made is an output error, and nothing after it is made")
    func failure() {
        let rendered = ExportRequest(format: .hocr).render(ExportFixtures.shortPoem, stamp: Self.stamp)
        #expect(rendered.document == nil)
        #expect(rendered.diagnostics.last?.severity == .error)
        #expect(rendered.diagnostics.last?.category == .output)
    }
}
