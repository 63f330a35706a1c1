import Foundation

/// Exports the poem as Markdown (CommonMark): the title as a level-1 heading, each stanza a
/// paragraph whose lines end in a hard line break (two spaces), stanzas separated by a blank
/// line. Every character Markdown would read as markup is escaped, so the poem's words come
/// out as written (an `*` stays an asterisk, `1.` does not start a list).
public struct MarkdownExporter: PoemExporter {
    /// Creates the exporter; it has no settings.
    public init() {}

    /// `.markdown`.
    public var format: ExportFormat { .markdown }

    /// The poem as Markdown in UTF-8, ending with a newline (empty for an empty poem).
    public func export(_ poem: ScannedPoem) -> Data {
        Data(Self.markdown(for: poem.text).utf8)
    }

    /// The Markdown for a poem's text.
    static func markdown(for text: String) -> String {
        let poem = PoemStanzas(text)
        var blocks: [String] = []
        if let title = poem.title {
            blocks.append("# " + escapeLine(title).replacingOccurrences(of: "#", with: "\\#"))
        }
        for stanza in poem.stanzas {
            blocks.append(stanza.map(escapeLine).joined(separator: "  \n"))
        }
        return blocks.isEmpty ? "" : blocks.joined(separator: "\n\n") + "\n"
    }

    /// Characters escaped wherever they appear: they start emphasis, code, links, HTML,
    /// entities, tables or strike-through.
    private static let inlineSpecials: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~"]
    /// Characters escaped only when they start a line: headings, block quotes, lists,
    /// setext underlines, thematic breaks.
    private static let lineStartSpecials: Set<Character> = ["#", "+", "-", "=", ">"]

    /// Escapes one line. Leading spaces become no-break spaces, so indentation is kept without
    /// turning the line into a code block.
    static func escapeLine(_ line: String) -> String {
        var output = ""
        var atStart = true
        var digitsSoFar = true
        for character in line {
            if atStart, character == " " || character == "\t" {
                output += character == " " ? "\u{A0}" : "\u{A0}\u{A0}\u{A0}\u{A0}"
                continue
            }
            defer { atStart = false }
            if inlineSpecials.contains(character) || atStart && lineStartSpecials.contains(character) {
                output += "\\" + String(character)
            } else if digitsSoFar, !atStart, character == "." || character == ")" {
                output += "\\" + String(character)  // "1." or "1)" would start a list
            } else {
                output.append(character)
            }
            digitsSoFar = digitsSoFar && character.isASCII && character.isNumber
        }
        return output
    }
}
