import Foundation

/// Turns a scanned poem into the bytes of one export format.
///
/// Exporters are pure: the same poem and the same settings always give the same bytes. Nothing
/// is read from the clock, the environment or the disk; what varies between runs (an e-mail's
/// date and Message-ID) is passed in. Nothing is written either: `OutputFile` does that.
public protocol PoemExporter: Sendable {
    /// The format this exporter writes.
    var format: ExportFormat { get }

    /// Renders `poem`.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the poem lacks what the format needs (a
    ///   Tesseract rendering the scan did not record), or `.invalidOption` for a bad setting
    ///   (an e-mail address). The formats built from the text alone never throw.
    func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data
}

extension ExportFormat {
    /// The exporter for this format, configured from `options`.
    ///
    /// - Throws: `SnapPoemError.invalidOption` for `.eml` when `options.email` is nil.
    public func exporter(options: ExportOptions = ExportOptions()) throws(SnapPoemError) -> any PoemExporter {
        switch self {
        case .text: return PlainTextExporter()
        case .markdown: return MarkdownExporter()
        case .html:
            if options.htmlSideBySide { return SideBySideHTMLExporter(languageTag: options.languageTag) }
            return HTMLExporter(languageTag: options.languageTag)
        case .json: return JSONExporter(layout: options.jsonLayout)
        case .eml:
            guard let email = options.email else {
                throw .invalidOption(
                    option: "ExportOptions.email", reason: "an e-mail draft needs its Date and Message-ID; pass EmailDraftOptions")
            }
            return EmailDraftExporter(options: email, languageTag: options.languageTag)
        case .hocr: return HOCRExporter(languageTag: options.languageTag, personalizesWords: options.personalizesLayoutWords)
        case .tsv: return TSVExporter(personalizesWords: options.personalizesLayoutWords)
        case .alto: return ALTOExporter(personalizesWords: options.personalizesLayoutWords)
        }
    }
}

extension ScannedPoem {
    /// The poem's bytes in `format`: `try poem.exported(as: .html)`.
    ///
    /// - Throws: `SnapPoemError` as `ExportFormat.exporter(options:)` and
    ///   `PoemExporter.export(_:)` do.
    public func exported(as format: ExportFormat, options: ExportOptions = ExportOptions()) throws(SnapPoemError) -> Data {
        try format.exporter(options: options).export(self)
    }
}
