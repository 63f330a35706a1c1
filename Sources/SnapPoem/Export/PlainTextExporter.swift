import Foundation

/// Exports the personalised poem as UTF-8 plain text, exactly as `ScannedPoem.text` holds it
/// (lines, blank lines between stanzas, a final newline).
public struct PlainTextExporter: PoemExporter {
    /// Creates the exporter; it has no settings.
    public init() {}

    /// `.text`.
    public var format: ExportFormat { .text }

    /// The poem's text in UTF-8.
    public func export(_ poem: ScannedPoem) -> Data {
        Data(poem.text.utf8)
    }
}
