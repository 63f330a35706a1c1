/// Escaping for the service's own pages: text and attribute values.
enum HTMLEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'`, so the result is safe in element content and in
    /// either kind of quoted attribute; control characters other than tab and line breaks
    /// become U+FFFD. Whatever a user types (a name such as `<script>`) is shown as text.
    static func escape(_ text: String) -> String {
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
}
