import Foundation

/// Exports the love-note page (`HTMLExporter`) with the photo beside it, annotated with what
/// was read (`PoemAnnotation`): a box round every word coloured by confidence, the replaced
/// words in green, line numbers, text that was not read outlined. A person can check the
/// poem against the photo line by line: the poem's lines carry the same numbers as the
/// photo's margin, and each replaced word links to its box on the photo and back; pointing
/// at either, or focusing it with the keyboard, highlights both.
///
/// Still one self-contained file: the photo is embedded as a JPEG `data:` URL (scaled down
/// to `imageMaximumSide`), all styling is in one inline style sheet (no `style` attributes),
/// and there is no script: the highlighting is CSS (`:has()`, with `:target` for browsers
/// without it). The two sit side by side on a wide screen and one above the other on a phone.
/// The pieces are `AnnotatedPhotoHTML`, for pages of one's own.
///
/// Needs the upright image the scan read: scan with `ScanConfiguration.keepsUprightImage`.
public struct SideBySideHTMLExporter: PoemExporter {
    /// The poem's language as a BCP 47 tag, for the page's `lang`.
    public var languageTag: String
    /// How the photo is annotated.
    public var style: AnnotationStyle
    /// The longest side of the embedded photo, in pixels. Default 1600: sharp on a laptop,
    /// a few hundred kilobytes.
    public var imageMaximumSide: Int
    /// The embedded JPEG's quality, 1–100. Default 85.
    public var imageQuality: Int

    /// Creates the exporter.
    public init(languageTag: String = "en", style: AnnotationStyle = .standard, imageMaximumSide: Int = 1600, imageQuality: Int = 85) {
        self.languageTag = languageTag
        self.style = style
        self.imageMaximumSide = imageMaximumSide
        self.imageQuality = imageQuality
    }

    /// `.html`.
    public var format: ExportFormat { .html }

    /// The page in UTF-8.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan did not keep its upright image
    ///   or the photo cannot be drawn or encoded.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        let parts = try AnnotatedPhotoHTML(poem: poem, style: style, imageMaximumSide: imageMaximumSide, imageQuality: imageQuality)
        return Data(page(poemText: poem.text, parts: parts).utf8)
    }

    /// The page made of `parts`.
    func page(poemText: String, parts: AnnotatedPhotoHTML) -> String {
        var article = "<article>\n"
        if let title = parts.title {
            article +=
                "<h1 class=\"reading-numbered\" id=\"line-\(title.number)\">\(AnnotatedPhotoHTML.number(title.number))\(title.html)</h1>\n"
        }
        article += "<p class=\"ornament\" aria-hidden=\"true\">\u{2766}</p>\n"
        if parts.stanzas.isEmpty {
            article += "<p class=\"empty\">(no text was found in the photo)</p>\n"
        }
        for stanza in parts.stanzas {
            let lines = stanza.map { line in
                "<span class=\"line reading-numbered\" id=\"line-\(line.number)\">\(AnnotatedPhotoHTML.number(line.number))\(line.html)</span>"
            }
            article += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
        }
        article += "<p class=\"closing\" aria-hidden=\"true\">\u{2665}</p>\n</article>\n"
        let title = parts.title?.text ?? HTMLExporter.untitled
        let head = HTMLExporter.documentHead(
            title: title, languageTag: languageTag, styleSheets: [HTMLExporter.styleSheet, Self.layout, parts.styleSheet])
        return head + """
            <body class="side-by-side">
            <div class="pair">
            <main>
            \(article)</main>
            \(parts.figure)</div>
            </body>
            </html>

            """
    }

    /// The two columns: the note and the photo beside it, or one above the other.
    static let layout = """
        body.side-by-side { padding: 2rem 1rem 3rem; }
        .pair { display: flex; flex-wrap: wrap; gap: 2rem; justify-content: center; align-items: flex-start; max-width: 92rem; margin: 0 auto; }
        .pair > main { flex: 1 1 28rem; margin: 0; }
        .pair > .reading { flex: 1 1 28rem; max-width: 46rem; }
        h1 .reading-number { line-height: 2.3rem; top: 0.3rem; }
        @media (max-width: 34rem) {
          body.side-by-side { padding: 1rem 0.5rem; }
        }
        """
}
