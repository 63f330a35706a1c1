/// Text for roff, the language of manual pages (man(7) macros).
enum Roff {
    /// `text` made safe for a roff text line or a macro's argument: a backslash, a dash (so
    /// that options render as the ASCII `-` one types, and never break at a hyphen), quotes
    /// and every character beyond ASCII are written as escapes, and a line that would start
    /// with a control character (`.` or `'`) starts with `\&` instead.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "'": escaped += "\\(aq"
            case "`": escaped += "\\(ga"
            case "\"": escaped += "\\(dq"
            case "\n", "\t": escaped += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") { escaped = "\\&" + escaped }
        return escaped
    }

    /// `text` in bold.
    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    /// `text` in italics (underlined on a terminal): placeholders such as FILE.
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// A paragraph whose words in backquotes, e.g. `--force`, are set in bold: the literal
    /// words one types.
    static func paragraph(_ text: String) -> String {
        var line = ""
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            line += index % 2 == 1 ? bold(String(part)) : escape(String(part))
        }
        return line
    }
}
