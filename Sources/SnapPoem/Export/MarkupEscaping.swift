/// Escaping for HTML and XML text and attribute values, shared by the HTML, hOCR, ALTO and
/// e-mail exporters and the HTTP service's pages (package-wide, not public API).
package enum MarkupEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'`, so the result is safe in element content and in
    /// either kind of quoted attribute. Characters XML forbids or discourages (C0 controls
    /// other than tab, line feed and carriage return; DEL; U+FFFE, U+FFFF) become U+FFFD, so
    /// that one stray byte in a replacement cannot make a document unreadable. Whatever a
    /// user typed (a name such as `<script>`) is shown as text.
    package static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// Undoes `escape` and Tesseract's own escaping (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
    /// `&#39;`, `&apos;`, and numeric references). Unknown references are kept as written.
    static func unescape(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let replacement = reference(name) {
                output.unicodeScalars.append(replacement)
                index = text.index(after: semicolon)
            } else {
                output.append(character)
                index = text.index(after: index)
            }
        }
        return output
    }

    private static func reference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// Replaces the escaped texts at `ranges` (ascending, not overlapping) of a markup
    /// document: `transform` gets them unescaped, in order, and returns as many new texts,
    /// which are escaped back in place. Returns `page` unchanged if the counts differ.
    static func replacingTexts(
        at ranges: [Range<String.Index>], in page: String, _ transform: ([String]) -> [String]
    ) -> String {
        let found = ranges.map { unescape(page[$0]) }
        let replaced = transform(found)
        guard replaced.count == found.count else { return page }
        var output = page
        for (range, text) in zip(ranges, replaced).reversed() {
            output.replaceSubrange(range, with: escape(text))
        }
        return output
    }
}
