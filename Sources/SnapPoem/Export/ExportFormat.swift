/// A format a poem can be exported in: one per way a person would send or keep it.
///
/// Each format has one exporter (`exporter(options:)`), a usual file extension, and a media
/// type. `hocr`, `tsv` and `alto` wrap Tesseract's own renderings, which a scan records only
/// when asked (`requiredRendering`, `RecognitionOptions.renderings`).
public enum ExportFormat: String, Sendable, Codable, CaseIterable {
    /// The personalised poem as UTF-8 plain text.
    case text
    /// Markdown: the title as a heading, stanzas as paragraphs with hard line breaks.
    case markdown
    /// One self-contained HTML page styled as a love note.
    case html
    /// The versioned JSON document described in `Docs/json-schema.md`.
    case json
    /// An e-mail draft (`.eml`, RFC 5322 with MIME) that mail clients open ready to send.
    case eml
    /// hOCR: Tesseract's layout as XHTML with boxes and confidences, words personalised.
    case hocr
    /// Tesseract's TSV table (one row per layout element), words personalised.
    case tsv
    /// ALTO v3 XML: Tesseract's layout for libraries and archives, words personalised.
    case alto

    /// The extension written by default, without the dot.
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .markdown: "md"
        case .html: "html"
        case .json: "json"
        case .eml: "eml"
        case .hocr: "hocr"
        case .tsv: "tsv"
        case .alto: "xml"
        }
    }

    /// The media type of the exported bytes, e.g. `text/html; charset=utf-8`.
    public var mediaType: String {
        switch self {
        case .text: "text/plain; charset=utf-8"
        case .markdown: "text/markdown; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        case .json: "application/json"
        case .eml: "message/rfc822"
        case .hocr: "application/xhtml+xml"
        case .tsv: "text/tab-separated-values; charset=utf-8"
        case .alto: "application/xml"
        }
    }

    /// The Tesseract rendering the exporter wraps, which the scan must have recorded; nil for
    /// formats built from the poem alone.
    public var requiredRendering: PageRenderingFormat? {
        switch self {
        case .hocr: .hocr
        case .tsv: .tsv
        case .alto: .alto
        case .text, .markdown, .html, .json, .eml: nil
        }
    }

    /// Whether several poems' exports can follow each other in one stream and still make
    /// sense (text, Markdown, and JSON as JSON Lines). The others are one document per file.
    public var allowsSeveralPoemsInOneStream: Bool {
        switch self {
        case .text, .markdown, .json: true
        case .html, .eml, .hocr, .tsv, .alto: false
        }
    }

    /// The format a file extension (without the dot, any case) stands for: `txt`/`text`,
    /// `md`/`markdown`, `html`/`htm`, `json`, `eml`, `hocr`, `tsv`, `xml`/`alto`.
    /// Nil for any other extension.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt", "text": self = .text
        case "md", "markdown": self = .markdown
        case "html", "htm": self = .html
        case "json": self = .json
        case "eml": self = .eml
        case "hocr": self = .hocr
        case "tsv": self = .tsv
        case "xml", "alto": self = .alto
        default: return nil
        }
    }

    /// The format an output path asks for by its extension.
    ///
    /// - Returns: `.text` for a path without an extension (`poem`, `.profile`), the format
    ///   for a known extension, nil for an unknown one (`poem.doc`).
    public static func inferred(fromPath path: String) -> ExportFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .text }
        let fileExtension = name[name.index(after: dot)...]
        guard !fileExtension.isEmpty else { return .text }
        return ExportFormat(fileExtension: String(fileExtension))
    }
}
