/// A poem's text split into what the formats with structure need: an optional title and
/// stanzas of lines. Shared by Markdown, HTML, the e-mail's default subject and the HTTP
/// service's note page (package-wide, not public API).
package struct PoemStanzas: Equatable {
    /// The title: the first stanza when it is a single short line and more stanzas follow.
    package var title: String?
    /// The stanzas after the title, each a list of lines without line breaks.
    package var stanzas: [[String]]

    /// The longest line still taken for a title, in characters.
    static let longestTitle = 80

    /// Splits `text` at blank lines (lines of only whitespace) into stanzas.
    package init(_ text: String) {
        var stanzas: [[String]] = []
        var current: [String] = []
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty { stanzas.append(current) }
                current = []
            } else {
                current.append(String(line))
            }
        }
        if !current.isEmpty { stanzas.append(current) }
        if stanzas.count > 1, stanzas[0].count == 1, stanzas[0][0].count <= Self.longestTitle {
            title = stanzas[0][0].trimmingWhitespace()
            stanzas.removeFirst()
        }
        self.stanzas = stanzas
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
