import Foundation

/// Exports Tesseract's TSV table: a header row, then one row per page, block, paragraph,
/// line and word (`level` 1–5) with its box and, for words, confidence and text.
///
/// By default the word rows carry the personalised words (see `WordPersonalization`); tabs
/// and line breaks in a replacement become spaces, so every row keeps its 12 columns.
public struct TSVExporter: PoemExporter {
    /// Whether word rows carry the personalised words (default) or the words as recognised.
    public var personalizesWords: Bool

    /// Creates the exporter.
    public init(personalizesWords: Bool = true) {
        self.personalizesWords = personalizesWords
    }

    /// `.tsv`.
    public var format: ExportFormat { .tsv }

    /// The table in UTF-8.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan did not record the TSV rendering.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        let table = try poem.recordedRendering(.tsv, for: .tsv)
        guard personalizesWords else { return Data(table.utf8) }
        var rows = table.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let wordRows = rows.indices.filter { rows[$0].count == 12 && rows[$0][0] == "5" }
        let found = wordRows.map { rows[$0][11] }
        let personalized = WordPersonalization.personalized(found, in: poem)
        for (row, text) in zip(wordRows, personalized) {
            rows[row][11] = String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        }
        return Data(rows.map { $0.joined(separator: "\t") }.joined(separator: "\n").utf8)
    }
}
