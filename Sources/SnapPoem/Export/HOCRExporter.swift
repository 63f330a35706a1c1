import Foundation

/// Exports hOCR: a complete XHTML document around Tesseract's page (`TessBaseAPIGetHOCRText`),
/// with the `ocr-system`, `ocr-capabilities` and `ocr-number-of-pages` metadata hOCR readers
/// look for, the page's `lang`, and the poem's title.
///
/// Boxes, baselines and confidences are Tesseract's. By default the words carry the
/// personalised text (see `WordPersonalization`), so the hOCR reads like the poem the user
/// made; the recognised words are in the JSON export.
public struct HOCRExporter: PoemExporter {
    /// The poem's language as a BCP 47 tag for the document's `lang` and `xml:lang`.
    public var languageTag: String
    /// Whether `ocrx_word` elements carry the personalised words (default) or the words as
    /// recognised.
    public var personalizesWords: Bool

    /// Creates the exporter.
    public init(languageTag: String = "en", personalizesWords: Bool = true) {
        self.languageTag = languageTag
        self.personalizesWords = personalizesWords
    }

    /// `.hocr`.
    public var format: ExportFormat { .hocr }

    /// The hOCR document in UTF-8.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan did not record the hOCR rendering.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        var page = try poem.recordedRendering(.hocr, for: .hocr)
        if personalizesWords {
            page = Self.rewritingWords(of: page) { WordPersonalization.personalized($0, in: poem) }
        }
        // Tesseract cannot know the file name of an image it was handed in memory.
        if poem.source != "-", !poem.source.contains("\""), let range = page.range(of: "title='image \"unknown\";") {
            page.replaceSubrange(range, with: "title='image \"\(MarkupEscaping.escape(poem.source))\";")
        }
        let title = PoemStanzas(poem.text).title ?? HTMLExporter.untitled
        let language = MarkupEscaping.escape(languageTag)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
                "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(language)" lang="\(language)">
             <head>
              <title>\(MarkupEscaping.escape(title))</title>
              <meta http-equiv="Content-Type" content="text/html;charset=utf-8" />
              <meta name="ocr-system" content="tesseract \(MarkupEscaping.escape(Versions.tesseract))" />
              <meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf" />
              <meta name="ocr-number-of-pages" content="1" />
              <meta name="generator" content="snap-poem \(Versions.snapPoem)" />
             </head>
             <body>

            """ + page + (page.hasSuffix("\n") ? "" : "\n") + " </body>\n</html>\n"
        return Data(document.utf8)
    }

    /// Replaces the text of every `ocrx_word` element. `transform` gets the words as found
    /// (unescaped, in document order) and returns their new texts. A word whose content holds
    /// further markup (Tesseract's optional character boxes) is left as it is.
    static func rewritingWords(of page: String, _ transform: ([String]) -> [String]) -> String {
        var contents: [Range<String.Index>] = []
        var searchFrom = page.startIndex
        while let marker = page.range(of: "class='ocrx_word'", range: searchFrom..<page.endIndex),
            let tagEnd = page[marker.upperBound...].firstIndex(of: ">")
        {
            let contentStart = page.index(after: tagEnd)
            guard let close = page.range(of: "</span>", range: contentStart..<page.endIndex) else { break }
            if !page[contentStart..<close.lowerBound].contains("<") {
                contents.append(contentStart..<close.lowerBound)
            }
            searchFrom = contentStart
        }
        return MarkupEscaping.replacingTexts(at: contents, in: page, transform)
    }
}
