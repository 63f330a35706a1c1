import Foundation

/// Exports the poem as the versioned JSON document `JSONPoemDocument` (schema in
/// `Docs/json-schema.md`): both texts, the replacements with their positions, per-line and
/// per-word confidences and boxes, image facts, preprocessing, timings and whether the time
/// limit was reached.
///
/// Keys are written in alphabetical order, so the same poem always gives the same bytes.
public struct JSONExporter: PoemExporter {
    /// How the document is laid out.
    public enum Layout: String, Sendable, Equatable, Codable, CaseIterable {
        /// Indented over many lines, for people; ends with a newline.
        case pretty
        /// One line ending with a newline: one poem per line of a JSON Lines stream.
        case jsonLines
    }

    /// How the document is laid out. Default `.pretty`.
    public var layout: Layout

    /// Creates the exporter.
    public init(layout: Layout = .pretty) {
        self.layout = layout
    }

    /// `.json`.
    public var format: ExportFormat { .json }

    /// The document in UTF-8, ending with a newline.
    public func export(_ poem: ScannedPoem) -> Data {
        encode(JSONPoemDocument(poem))
    }

    /// The document of a file of several pages (`JSONPoemDocument.init(_:)` for a
    /// `ScannedDocument`: the whole text at the top, every page under `pages`), in UTF-8,
    /// ending with a newline; nil when no page was read. A document of one page gives what
    /// `export(_:)` gives for its poem.
    public func export(_ document: ScannedDocument) -> Data? {
        if document.pageCount == 1, let poem = document.pages.first?.poem { return export(poem) }
        return JSONPoemDocument(document).map(encode)
    }

    private func encode(_ document: JSONPoemDocument) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if layout == .pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        // Only strings, integers, booleans and finite numbers are encoded; that cannot fail.
        do {
            var data = try encoder.encode(document)
            data.append(0x0A)
            return data
        } catch {
            preconditionFailure("encoding a JSONPoemDocument failed: \(error)")
        }
    }
}
