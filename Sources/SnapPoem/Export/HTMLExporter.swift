import Foundation

/// Exports the poem as one self-contained HTML page that looks like a love note: the title in
/// italic over a small ornament, the stanzas set in a serif on warm paper, all styling inline
/// (no fonts, images or scripts to fetch), so the file can be mailed or opened anywhere.
///
/// The page is UTF-8 HTML5 that is also well-formed XML; every piece of the poem is escaped,
/// so a replacement such as `<b>` shows as text. A line that wraps on a narrow screen hangs
/// indented, the way poems are printed.
public struct HTMLExporter: PoemExporter {
    /// The poem's language as a BCP 47 tag, for the page's `lang` (hyphenation, screen readers).
    public var languageTag: String

    /// Creates the exporter.
    public init(languageTag: String = "en") {
        self.languageTag = languageTag
    }

    /// `.html`.
    public var format: ExportFormat { .html }

    /// The page in UTF-8.
    public func export(_ poem: ScannedPoem) -> Data {
        export(text: poem.text)
    }

    /// The page for a poem's text alone, in UTF-8: what `export(_:)` writes for a poem with
    /// this text (a poem a person has corrected after reading it, say).
    public func export(text: String) -> Data {
        Data(page(for: text).utf8)
    }

    /// One page holding several poems, one `<article>` each in order (the pages of a
    /// multi-page TIFF), in UTF-8; the page's title is the first poem's.
    public func export(texts: [String]) -> Data {
        let title = texts.lazy.compactMap { PoemStanzas($0).title }.first ?? Self.untitled
        let articles = texts.map(article).joined()
        return Data(
            (Self.documentHead(title: title, languageTag: languageTag, styleSheets: [Self.styleSheet])
                + "<body>\n<main>\n\(articles)</main>\n</body>\n</html>\n").utf8)
    }

    /// The page for a poem's text; what `export` encodes.
    func page(for text: String) -> String {
        let title = PoemStanzas(text).title ?? Self.untitled
        let body = "<main>\n" + article(for: text) + "</main>\n"
        return Self.documentHead(title: title, languageTag: languageTag, styleSheets: [Self.styleSheet]) + """
            <body>
            \(body)</body>
            </html>

            """
    }

    /// One poem's `<article>`.
    func article(for text: String) -> String {
        let poem = PoemStanzas(text)
        var body = ""
        body += "<article>\n"
        if let heading = poem.title {
            body += "<h1>\(MarkupEscaping.escape(heading))</h1>\n"
        }
        body += "<p class=\"ornament\" aria-hidden=\"true\">\u{2766}</p>\n"
        if poem.stanzas.isEmpty {
            body += "<p class=\"empty\">(no text was found in the photo)</p>\n"
        }
        for stanza in poem.stanzas {
            let lines = stanza.map { "<span class=\"line\">\(MarkupEscaping.escape($0))</span>" }
            body += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
        }
        body += "<p class=\"closing\" aria-hidden=\"true\">\u{2665}</p>\n"
        body += "</article>\n"
        return body
    }

    /// A page's beginning, shared by the love note and the side-by-side page: the doctype,
    /// `<html lang>`, the meta tags, the escaped title and the style sheets, through `</head>`.
    static func documentHead(title: String, languageTag: String, styleSheets: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(MarkupEscaping.escape(languageTag))">
        <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="generator" content="snap-poem \(Versions.snapPoem)" />
        <title>\(MarkupEscaping.escape(title))</title>
        <style>
        \(styleSheets.joined(separator: "\n"))
        </style>
        </head>

        """
    }

    /// The page title when the poem has none of its own.
    static let untitled = "A poem for you"

    /// The page's only styling. Kept free of `<` and `&` so the page stays well-formed XML.
    static let styleSheet = """
        :root { color-scheme: light; }
        html { background: #f3e3dc; }
        body {
          margin: 0; padding: 3rem 1rem 4rem;
          background: radial-gradient(circle at 50% 0, #fbefe9 0, #f3e3dc 60%);
          color: #3d2b2b;
          font-family: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif;
          font-size: 1.1rem; line-height: 1.7;
          -webkit-font-smoothing: antialiased;
        }
        main {
          max-width: 42rem; margin: 0 auto; padding: 3.2rem 3.4rem 2.4rem;
          background: #fffaf4;
          border: 1px solid #ecd3cb; border-radius: 4px;
          box-shadow: 0 1px 2px rgba(90, 40, 40, 0.10), 0 18px 48px rgba(90, 40, 40, 0.14);
        }
        h1 {
          margin: 0; text-align: center;
          font-weight: normal; font-style: italic; font-size: 2.3rem; line-height: 1.2;
          letter-spacing: 0.02em; color: #9e3349;
        }
        .ornament { margin: 0.5rem 0 2.2rem; text-align: center; color: #c4637a; font-size: 1.5rem; }
        .stanza { margin: 0 0 1.6em; hyphens: manual; }
        .line { display: block; padding-left: 1.6em; text-indent: -1.6em; }
        .empty { text-align: center; font-style: italic; color: #9c7b7b; }
        .closing { margin: 2rem 0 0; text-align: center; color: #c4637a; font-size: 1.2rem; }
        article + article { margin-top: 3rem; padding-top: 2.5rem; border-top: 1px solid #ecd3cb; }
        @media (max-width: 34rem) {
          body { padding: 1rem 0.5rem; }
          main { padding: 2rem 1.4rem 1.6rem; }
        }
        @media print {
          html, body { background: none; }
          main { box-shadow: none; border: none; }
        }
        """
}
