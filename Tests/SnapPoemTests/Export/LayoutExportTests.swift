import Foundation
import Testing

@testable import SnapPoem

/// The word texts of an export, read back with Python's parsers: hOCR `ocrx_word` elements,
/// ALTO `String/@CONTENT`, TSV rows of level 5.
private enum WordReader {
    static func hocrWords(_ data: Data) throws -> [String] {
        let script = """
            import sys, json, xml.etree.ElementTree as E
            root = E.fromstring(sys.stdin.buffer.read())
            ns = "{http://www.w3.org/1999/xhtml}"
            words = ["".join(e.itertext()) for e in root.iter(ns + "span") if e.get("class") == "ocrx_word"]
            print(json.dumps(words))
            """
        return try JSONDecoder().decode([String].self, from: Data(try Python.run(script, input: data).utf8))
    }

    static func altoWords(_ data: Data) throws -> [String] {
        let script = """
            import sys, json, xml.etree.ElementTree as E
            root = E.fromstring(sys.stdin.buffer.read())
            ns = "{http://www.loc.gov/standards/alto/ns-v3#}"
            print(json.dumps([e.get("CONTENT") for e in root.iter(ns + "String")]))
            """
        return try JSONDecoder().decode([String].self, from: Data(try Python.run(script, input: data).utf8))
    }

    static func tsvWords(_ data: Data) throws -> [String] {
        let script = """
            import sys, csv, json, io
            rows = list(csv.reader(io.StringIO(sys.stdin.buffer.read().decode("utf-8")), delimiter="\\t", quoting=csv.QUOTE_NONE))
            assert rows[0][:2] == ["level", "page_num"], rows[0]
            assert all(len(r) == 12 for r in rows if r), [r for r in rows if r and len(r) != 12]
            print(json.dumps([r[11] for r in rows[1:] if r and r[0] == "5"]))
            """
        return try JSONDecoder().decode([String].self, from: Data(try Python.run(script, input: data).utf8))
    }
}

@Suite("hOCR, TSV and ALTO: Tesseract's layout, personalised")
struct LayoutExportTests {
    @Test("hOCR is a complete XHTML document with the hOCR metadata")
    func hocrDocument() async throws {
        let poem = try await ExportFixtures.lenore.value
        let data = try HOCRExporter(languageTag: "en").export(poem)
        #expect(isWellFormedXML(data))
        #expect(try Python.xmlRootTag(data) == "{http://www.w3.org/1999/xhtml}html")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html"))
        #expect(text.contains("<meta name=\"ocr-system\" content=\"tesseract \(Versions.tesseract)\" />"))
        #expect(text.contains("<meta name=\"ocr-capabilities\" content=\"ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf\" />"))
        #expect(text.contains("xml:lang=\"en\" lang=\"en\""))
        #expect(text.contains("<title>Alex</title>"))
        #expect(text.contains("title='image \"\(Fixtures.sample("Lenore.png"))\"; bbox 0 0 "))
        #expect(text.contains("x_wconf"))
    }

    @Test("ALTO v3 is a complete document with namespace, schema and Description")
    func altoDocument() async throws {
        let poem = try await ExportFixtures.lenore.value
        let data = try ALTOExporter().export(poem)
        #expect(isWellFormedXML(data))
        #expect(try Python.xmlRootTag(data) == "{http://www.loc.gov/standards/alto/ns-v3#}alto")
        let text = String(decoding: data, as: UTF8.self)
        for part in [
            "xsi:schemaLocation=\"http://www.loc.gov/standards/alto/ns-v3# http://www.loc.gov/alto/v3/alto-3-0.xsd\"",
            "<MeasurementUnit>pixel</MeasurementUnit>", "<fileName>\(Fixtures.sample("Lenore.png"))</fileName>",
            "<softwareName>tesseract</softwareName>", "<postProcessingStep>", "<Layout>", "<Page WIDTH=\"1731\" HEIGHT=\"2622\"",
        ] {
            #expect(text.contains(part), "\(part)")
        }
    }

    @Test(
        "The words carry the personalisation, a multi-word one in its first word's box",
        arguments: ExportFormat.allCases.filter { $0.requiredRendering != nil })
    func personalisedWords(format: ExportFormat) async throws {
        let poem = try await ExportFixtures.lenore.value
        let data = try poem.exported(as: format)
        let words: [String] =
            switch format {
            case .hocr: try WordReader.hocrWords(data)
            case .alto: try WordReader.altoWords(data)
            default: try WordReader.tsvWords(data)
            }
        let recognized = poem.page.words.map(\.text)
        #expect(words.count == recognized.count)
        #expect(!words.contains { $0.contains("Lenore") })
        #expect(words.filter { $0.hasPrefix("Alex") }.count == 3)
        let guy = try #require(recognized.firstIndex(of: "Guy"))
        #expect(Array(recognized[guy...(guy + 2)]) == ["Guy", "De", "Vere,"])
        #expect(Array(words[guy...(guy + 2)]) == ["Zoë", "", ","])
        // Every other word is exactly as Tesseract read it.
        let changed = Set(recognized.indices.filter { recognized[$0] != words[$0] })
        #expect(changed.count == 3 + 3)
    }

    @Test("personalizesWords: false keeps Tesseract's words", arguments: [true, false])
    func unpersonalised(personalize: Bool) async throws {
        let poem = try await ExportFixtures.lenore.value
        let words = try WordReader.altoWords(try ALTOExporter(personalizesWords: personalize).export(poem))
        #expect(words.contains("Lenore") == !personalize)
        #expect(try WordReader.tsvWords(try TSVExporter(personalizesWords: personalize).export(poem)).contains("Lenore") == !personalize)
        #expect(try WordReader.hocrWords(try HOCRExporter(personalizesWords: personalize).export(poem)).contains("Lenore") == !personalize)
    }

    @Test("Without the rendering recorded, the export says what to ask for", arguments: [ExportFormat.hocr, .tsv, .alto])
    func missingRendering(format: ExportFormat) {
        #expect(throws: SnapPoemError.self) { try ExportFixtures.shortPoem.exported(as: format) }
        do {
            _ = try ExportFixtures.shortPoem.exported(as: format)
        } catch {
            #expect(error.description.hasPrefix("poem.png: cannot export as \(format.rawValue) (the scan did not record"))
            #expect(error.description.contains("RecognitionOptions.renderings"))
        }
    }

    @Test("Markup and tabs in a replacement cannot break the documents")
    func hostileReplacement() async throws {
        var poem = try await ExportFixtures.lenore.value
        poem.personalized = ReplacementSet([Replacement(find: "Lenore", replaceWith: "<b a=\"'\">&\tx</b>")]).apply(to: poem.recognizedText)
        let hocr = try HOCRExporter().export(poem)
        let alto = try ALTOExporter().export(poem)
        #expect(isWellFormedXML(hocr) && isWellFormedXML(alto))
        #expect(try WordReader.hocrWords(hocr).contains("<b a=\"'\">&\tx</b>"))
        // XML turns a tab inside an attribute into a space when it reads it.
        #expect(try WordReader.altoWords(alto).contains("<b a=\"'\">& x</b>"))
        #expect(try WordReader.tsvWords(try TSVExporter().export(poem)).contains("<b a=\"'\">& x</b>"))
    }
}

@Suite("Carrying replacements over to words")
struct WordPersonalizationTests {
    @Test(
        "Line by line, across word boundaries",
        arguments: [
            (["Guy De Vere, hast thou"], [("Guy De Vere", "Zoë")], ["Zoë", "", ",", "hast", "thou"]),
            (["love, Lenore!"], [("Lenore", "Alex")], ["love,", "Alex!"]),
            (["Lenore-Lenore"], [("Lenore", "A")], ["A-A"]),
            (["Lenored Lenore"], [("Lenore", "A")], ["Lenored", "A"]),
            (["a b c"], [("b c", "x y z")], ["a", "x y z", ""]),
        ] as [([String], [(String, String)], [String])])
    func lines(lines: [String], pairs: [(String, String)], expected: [String]) {
        let poem = ExportFixtures.poem([lines], replacing: pairs.map { Replacement(find: $0.0, replaceWith: $0.1) })
        #expect(WordPersonalization.personalizedWords(of: poem.page, changes: poem.personalized.changes) == expected)
    }
}
