/// A poem's text split into what the formats with structure need: an optional title and
/// stanzas of lines. Shared by Markdown, HTML, the e-mail's default subject and the HTTP
/// service's note page (package-wide, not public API).
package struct PoemStanzas: Equatable {
    /// One line of the text, with where it is.
    package struct Line: Equatable {
        /// The line without its line break (the title without the whitespace around it).
        package var text: String
        /// Its 1-based line number in the text, blank lines counted.
        package var number: Int
        /// The `Character` offset in the text where `text` starts.
        package var offset: Int
    }

    /// The title, with where it is.
    package var titleLine: Line?
    /// The stanzas after the title, with where each line is.
    package var stanzaLines: [[Line]]

    /// The title: the first stanza when it is a single short line and more stanzas follow.
    package var title: String? { titleLine?.text }
    /// The stanzas after the title, each a list of lines without line breaks.
    package var stanzas: [[String]] { stanzaLines.map { $0.map(\.text) } }

    /// The longest line still taken for a title, in characters.
    static let longestTitle = 80

    /// Splits `text` at blank lines (lines of only whitespace) into stanzas.
    package init(_ text: String) {
        var stanzas: [[Line]] = []
        var current: [Line] = []
        // "\r\n" is one Character, as "\n" is: splitting at either keeps offsets in step.
        var offset = 0
        var number = 1
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            defer {
                offset += line.count + 1
                number += 1
            }
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty { stanzas.append(current) }
                current = []
            } else {
                current.append(Line(text: String(line), number: number, offset: offset))
            }
        }
        if !current.isEmpty { stanzas.append(current) }
        if stanzas.count > 1, stanzas[0].count == 1, stanzas[0][0].text.count <= Self.longestTitle {
            let first = stanzas[0][0]
            let leading = first.text.prefix { $0.isWhitespace }.count
            titleLine = Line(text: first.text.trimmingWhitespace(), number: first.number, offset: first.offset + leading)
            stanzas.removeFirst()
        }
        self.stanzaLines = stanzas
    }
}

extension String {
    /// The string without whitespace at either end.
    func trimmingWhitespace() -> String {
        var start = startIndex, end = endIndex
        while start < end, self[start].isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
        return String(self[start..<end])
    }
}
