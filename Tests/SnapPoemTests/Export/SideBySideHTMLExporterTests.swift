import Foundation
import Testing

@testable import SnapPoem

/// What Python's `html.parser` finds in a side-by-side page: the poem's lines with their
/// gutter numbers, the links between replaced words and boxes, the photo's labels, and
/// whatever would make the page less than self-contained.
struct SideBySidePage: Decodable {
    struct Line: Decodable {
        var number: String
        var text: String
    }

    struct Link: Decodable {
        var id: String?
        var href: String?
        var classes: String
        var text: String
    }

    var lines: [Line]
    var links: [Link]
    var labels: [String]
    var imageSources: [String]
    var scripts: Int
    var externalReferences: [String]
    var nestingErrors: [String]
    var styleAttributes: Int

    static let script = #"""
        import sys, json
        from html.parser import HTMLParser
        VOID = {"meta", "br", "link", "img", "hr", "input"}
        class Page(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.open = []
                self.line = None; self.number = None; self.link = None; self.label = None
                self.out = {"lines": [], "links": [], "labels": [], "imageSources": [], "scripts": 0,
                            "externalReferences": [], "nestingErrors": [], "styleAttributes": 0}
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                classes = (a.get("class") or "").split()
                for key in ("src", "href"):
                    value = a.get(key) or ""
                    if value and not value.startswith("#") and not value.startswith("data:"):
                        self.out["externalReferences"].append(value)
                if tag == "script": self.out["scripts"] += 1
                if "style" in a: self.out["styleAttributes"] += 1
                if tag == "img": self.out["imageSources"].append(a.get("src", ""))
                if (tag == "span" and "line" in classes) or tag == "h1":
                    self.line = {"number": "", "text": ""}; self.lineTag = (tag, len(self.open))
                if tag == "span" and "reading-number" in classes: self.number = ""
                if tag == "span" and "reading-label" in classes: self.label = ""
                if tag == "a":
                    self.link = {"id": a.get("id"), "href": a.get("href"), "classes": a.get("class") or "", "text": ""}
                if tag not in VOID: self.open.append(tag)
            def handle_endtag(self, tag):
                if tag in VOID: return
                if not self.open or self.open[-1] != tag:
                    self.out["nestingErrors"].append("</%s> while %s open" % (tag, self.open)); return
                self.open.pop()
                if tag == "a" and self.link is not None:
                    self.out["links"].append(self.link); self.link = None
                elif tag == "span" and self.number is not None:
                    self.line["number"] = self.number; self.number = None
                elif tag == "span" and self.label is not None:
                    self.out["labels"].append(self.label); self.label = None
                elif self.line is not None and (tag, len(self.open)) == self.lineTag:
                    self.out["lines"].append(self.line); self.line = None
            def handle_data(self, data):
                if self.number is not None: self.number += data; return
                if self.label is not None: self.label += data; return
                if self.link is not None: self.link["text"] += data
                if self.line is not None: self.line["text"] += data
        page = Page()
        page.feed(sys.stdin.buffer.read().decode("utf-8"))
        page.close()
        if page.open: page.out["nestingErrors"].append("left open: %s" % page.open)
        print(json.dumps(page.out))
        """#

    static func parse(_ html: Data) throws -> SideBySidePage {
        try JSONDecoder().decode(SideBySidePage.self, from: Data(try Python.run(script, input: html).utf8))
    }
}

@Suite("HTML side by side: the love note beside the annotated photo")
struct SideBySideHTMLExporterTests {
    /// Lenore.png read with Lenore → Alex and Guy De Vere → Zoë, with its upright image.
    static func lenore() async throws -> ScannedPoem {
        var poem = try await ExportFixtures.lenore.value
        poem.uprightImage = try ImageDecoder.decode(fileAt: Fixtures.sample("Lenore.png")).image
        return poem
    }

    @Test("Every replaced word links to its box on the photo and back; lines carry the photo's numbers")
    func links() async throws {
        let poem = try await Self.lenore()
        let html = try SideBySideHTMLExporter().export(poem)
        let page = try SideBySidePage.parse(html)
        #expect(page.nestingErrors.isEmpty, "\(page.nestingErrors)")
        #expect(isWellFormedXML(html), "the page is meant to be well-formed XML as well")

        let replaced = page.links.filter { $0.classes.split(separator: " ").contains("replaced") }
        #expect(replaced.map(\.text) == poem.personalized.changes.map(\.replacement), "\(replaced.map(\.text))")
        #expect(replaced.map(\.text) == ["Alex", "Zoë", "Alex", "Alex"])
        let boxes = page.links.filter { $0.classes.split(separator: " ").contains("reading-box") }
        for (index, link) in replaced.enumerated() {
            let number = index + 1
            #expect(link.id == "change-\(number)" && link.href == "#box-\(number)")
            let box = try #require(boxes.first { $0.id == "box-\(number)" }, "box-\(number)")
            #expect(box.href == "#change-\(number)")
            #expect(box.classes.contains("c-\(number)") && link.classes.contains("c-\(number)"))
        }
        // Zoë replaced three words, so three boxes light up with its link.
        #expect(boxes.filter { $0.classes.contains("c-2") }.count == 3)

        // The same poem as the love note, line for line, each with its number in the text.
        let stanzas = PoemStanzas(poem.text)
        let expected = ([stanzas.titleLine].compactMap { $0 } + stanzas.stanzaLines.flatMap { $0 })
        #expect(page.lines.map(\.text) == expected.map(\.text))
        #expect(page.lines.map(\.number) == expected.map { String($0.number) })
        #expect(page.lines.first { $0.text.hasPrefix("See! on yon") }?.number == "6")
        // The photo's margin carries the same numbers.
        #expect(Set(page.labels) == Set(expected.map { String($0.number) }), "\(page.labels)")
    }

    @Test("Self-contained: one embedded JPEG of the photo at most 1600 px, no script, no style attribute, nothing fetched")
    func selfContained() async throws {
        let poem = try await Self.lenore()
        let html = try SideBySideHTMLExporter().export(poem)
        let page = try SideBySidePage.parse(html)
        #expect(page.scripts == 0)
        #expect(page.styleAttributes == 0, "positions live in the style sheet, so a strict Content-Security-Policy allows the page")
        #expect(page.externalReferences.isEmpty, "\(page.externalReferences)")
        let source = try #require(page.imageSources.first)
        #expect(page.imageSources.count == 1)
        let prefix = "data:image/jpeg;base64,"
        #expect(source.hasPrefix(prefix))
        let jpeg = try #require(Data(base64Encoded: String(source.dropFirst(prefix.count))))
        let (photo, facts) = try ImageDecoder.decode(data: jpeg, name: "embedded")
        #expect(facts.format == .jpeg)
        #expect(max(photo.width, photo.height) == 1600)
        #expect(abs(Double(photo.width) / Double(photo.height) - 1731.0 / 2622.0) < 0.002)
        #expect(html.count < 1_500_000, "\(html.count) bytes")
    }

    @Test("A scan that kept no image cannot have the page; ExportOptions chooses it for .html")
    func needsTheImage() async throws {
        let poem = try await ExportFixtures.lenore.value
        do {
            _ = try SideBySideHTMLExporter().export(poem)
            Issue.record("exported without the photo")
        } catch {
            #expect(error.description.contains("keepsUprightImage"), "\(error)")
        }
        var options = ExportOptions()
        options.htmlSideBySide = true
        #expect(try ExportFormat.html.exporter(options: options) is SideBySideHTMLExporter)
        #expect(try ExportFormat.html.exporter() is HTMLExporter)
        #expect(throws: SnapPoemError.self) { try poem.exported(as: .html, options: options) }
    }

    @Test("A replacement with markup in it stays text, in the poem and in the box's title")
    func escaping() throws {
        var poem = ExportFixtures.poem(
            [["Lenore"], ["See! on yon bier low lies thy love, Lenore!"]],
            replacing: [Replacement(find: "Lenore", replaceWith: "<b>A&B</b>")])
        let photo = try #require(
            PoemImage.filled(width: poem.preprocessingReport.inputWidth, height: poem.preprocessingReport.inputHeight))
        poem.uprightImage = photo
        let html = try SideBySideHTMLExporter().export(poem)
        let text = String(decoding: html, as: UTF8.self)
        #expect(!text.contains("<b>"))
        #expect(text.contains("&lt;b&gt;A&amp;B&lt;/b&gt;</a>"))
        let page = try SideBySidePage.parse(html)
        #expect(page.links.filter { $0.classes.contains("replaced") }.map(\.text) == ["<b>A&B</b>", "<b>A&B</b>"])
        #expect(isWellFormedXML(html))
    }
}
