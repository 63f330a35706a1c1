/// Tidies the text Tesseract returns into the poem's shape, before replacements run.
///
/// Keeps every line break and turns each run of blank lines into one blank line (a stanza
/// break); removes spaces at line ends and blank lines at the start and end; ends the text
/// with exactly one newline (none for an empty page).
public enum OCRTextCleanup {
    /// Returns the tidied text. Idempotent: cleaning twice gives the same text as once.
    public static func clean(_ text: String) -> String {
        var lines: [Substring] = []
        var pendingBlank = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.replacingTrailingWhitespace()
            if line.allSatisfy(\.isWhitespace) {
                pendingBlank = !lines.isEmpty
                continue
            }
            if pendingBlank { lines.append("") }
            pendingBlank = false
            lines.append(line)
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}

extension Substring {
    fileprivate func replacingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[startIndex..<end]
    }
}
