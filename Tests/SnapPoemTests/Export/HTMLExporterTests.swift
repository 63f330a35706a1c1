import Foundation
import SnapPoem
import Testing

/// What Python's `html.parser` (a real HTML tokenizer, independent of snap-poem) finds in a
/// page: the parts a love note must have, every tag, and any tag closed out of order.
struct ParsedPage: Decodable {
    var doctype: String?
    var lang: String?
    var charset: String?
    var title: String
    var heading: String
    var stanzas: [[String]]
    var tags: [String]
    var nestingErrors: [String]

    static let script = #"""
        import sys, json
        from html.parser import HTMLParser
        VOID = {"meta", "br", "link", "img", "hr", "input"}
        class Page(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.open = []
                self.line = None
                self.out = {"doctype": None, "lang": None, "charset": None, "title": "", "heading": "",
                            "stanzas": [], "tags": [], "nestingErrors": []}
            def handle_decl(self, decl):
                self.out["doctype"] = decl
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                self.out["tags"].append(tag)
                if tag == "html": self.out["lang"] = a.get("lang")
                if tag == "meta" and "charset" in a: self.out["charset"] = a["charset"]
                if tag == "p" and a.get("class") == "stanza": self.out["stanzas"].append([])
                if tag == "span" and a.get("class") == "line": self.line = ""
                if tag not in VOID: self.open.append(tag)
            def handle_endtag(self, tag):
                if tag in VOID: return
                if not self.open or self.open[-1] != tag:
                    self.out["nestingErrors"].append("</%s> while %s open" % (tag, self.open))
                else:
                    self.open.pop()
                if tag == "span" and self.line is not None:
                    self.out["stanzas"][-1].append(self.line)
                    self.line = None
            def handle_data(self, data):
                if self.line is not None: self.line += data
                elif self.open and self.open[-1] == "title": self.out["title"] += data
                elif self.open and self.open[-1] == "h1": self.out["heading"] += data
        page = Page()
        page.feed(sys.stdin.buffer.read().decode("utf-8"))
        page.close()
        if page.open: page.out["nestingErrors"].append("left open: %s" % page.open)
        print(json.dumps(page.out))
        """#

    static func parse(_ html: Data) throws -> ParsedPage {
        try JSONDecoder().decode(ParsedPage.self, from: Data(try Python.run(script, input: html).utf8))
    }
}

@Suite("HTML export: a self-contained love note")
struct HTMLExporterTests {
    @Test("A real HTML parser finds doctype, lang, UTF-8, title, heading and the stanzas")
    func structure() throws {
        let html = HTMLExporter(languageTag: "en").export(ExportFixtures.shortPoem)
        let page = try ParsedPage.parse(html)
        #expect(page.doctype == "DOCTYPE html")
        #expect(page.lang == "en")
        #expect(page.charset == "utf-8")
        #expect(page.title == "Alex")
        #expect(page.heading == "Alex")
        #expect(
            page.stanzas == [
                ["See! on yon bier low lies thy love, Alex!", "Come! let the rite be read"], ["The sweet Alex hath gone before"],
            ])
        #expect(page.nestingErrors.isEmpty, "\(page.nestingErrors)")
        #expect(page.tags.filter { $0 == "style" }.count == 1)
        #expect(isWellFormedXML(html), "the page is meant to be well-formed XML as well")
    }

    @Test("Self-contained: no scripts, links, images or fetched fonts")
    func selfContained() throws {
        let html = String(decoding: HTMLExporter().export(ExportFixtures.shortPoem), as: UTF8.self)
        for forbidden in ["<script", "<link", "<img", "src=", "href=", "url(", "@import", "@font-face"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
    }

    @Test(
        "Everything from the poem is escaped: a replacement is shown, never run",
        arguments: [
            "<script>alert('x')</script>",
            "</span></p><h1>injected</h1>",
            "Tom & Jerry \"quoted\" 'single'",
            "&amp; &lt; &#x41;",
            "bell\u{07}control",
        ])
    func escaping(replacement: String) throws {
        let poem = ExportFixtures.poem(
            [["Lenore"], ["low lies thy love, Lenore!"]], replacing: [Replacement(find: "Lenore", replaceWith: replacement)])
        let html = HTMLExporter().export(poem)
        let page = try ParsedPage.parse(html)
        let shown = replacement.replacingOccurrences(of: "\u{07}", with: "\u{FFFD}")
        #expect(page.title == shown)
        #expect(page.heading == shown)
        #expect(page.stanzas == [["low lies thy love, \(shown)!"]])
        #expect(!page.tags.contains("script"))
        #expect(page.tags.filter { $0 == "h1" }.count == 1)
        #expect(page.nestingErrors.isEmpty)
        #expect(isWellFormedXML(html))
    }

    @Test("The page's lang follows the language given", arguments: ["fr", "de", "zh-Hans"])
    func language(tag: String) throws {
        #expect(try ParsedPage.parse(HTMLExporter(languageTag: tag).export(ExportFixtures.shortPoem)).lang == tag)
    }

    @Test("A poem without a title gets a page title, and an empty poem still makes a page")
    func untitledAndEmpty() throws {
        let untitled = try ParsedPage.parse(HTMLExporter().export(ExportFixtures.poem([["one line", "two lines"]])))
        #expect(untitled.title == "A poem for you")
        #expect(untitled.heading.isEmpty)
        #expect(untitled.stanzas == [["one line", "two lines"]])
        let empty = try ParsedPage.parse(HTMLExporter().export(ExportFixtures.poem([])))
        #expect(empty.stanzas.isEmpty)
        #expect(empty.nestingErrors.isEmpty)
    }

    @Test("Lenore.png: every stanza and line of the personalised poem, in order")
    func lenore() async throws {
        let poem = try await ExportFixtures.lenore.value
        let page = try ParsedPage.parse(HTMLExporter().export(poem))
        #expect(page.title == "Alex")
        let expected = poem.text.components(separatedBy: "\n\n").dropFirst().map { $0.split(separator: "\n").map(String.init) }
        #expect(page.stanzas == Array(expected))
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        #expect(page.stanzas.count == truth.components(separatedBy: "\n\n").count - 1)
        #expect(page.stanzas.joined().contains { $0.contains("Zoë, hast thou no tear?") })
    }
}

@Suite("Language tags from Tesseract's codes")
struct LanguageTagTests {
    @Test(
        "Codes map to BCP 47",
        arguments: [
            ("eng", "en"), ("fra", "fr"), ("deu", "de"), ("chi_sim", "zh-Hans"), ("frk", "de"), ("spa_old", "es"),
            ("osd", "und"), ("script/Latin", "und"), ("yid", "yid"),
        ])
    func mapping(code: String, tag: String) {
        #expect(LanguageTag.forTesseractCode(code) == tag)
    }

    @Test("A set's first language decides")
    func set() throws {
        #expect(LanguageTag.forTesseract(try LanguageSet(parsing: "fra+eng")) == "fr")
        #expect(LanguageTag.forTesseract(.englishAndFrench) == "en")
    }
}
