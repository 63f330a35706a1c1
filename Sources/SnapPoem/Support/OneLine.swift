/// Makes text from outside (file names, option values) safe to print inside one line of a
/// diagnostic: a file name holding a line break must not split an error in two, and one
/// holding terminal escapes or bidirectional overrides must not rewrite what is shown.
public enum OneLine {
    /// `text` with every control character written as an escape: `\n`, `\r`, `\t`, and
    /// `\u{…}` for the others (C0 and C1 controls, DEL, the Unicode line and paragraph
    /// separators, and the bidirectional embedding, override and isolate characters).
    /// Everything else, backslashes included, is left as it is.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// The longest excerpt of outside text a message quotes, in characters (Unicode scalars).
    static let excerptLength = 60

    /// `text` as a message quotes it: whole when it has at most `limit` characters (Unicode
    /// scalars, so that no character, however many marks it combines, makes it long), else
    /// its first `limit` followed by `…`. A line of a million characters gives a message of
    /// one short line.
    static func excerpt(_ text: some StringProtocol, limit: Int = excerptLength) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return String(text) }
        return String(String.UnicodeScalarView(scalars.prefix(limit))) + "…"
    }

    /// Whether `scalar` is escaped by `escaping`.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional embeddings, overrides, isolates
        default: false
        }
    }
}

/// Sizes in bytes as people read them.
enum ByteCount {
    /// "300 bytes", "64 KiB", "1.5 MiB", "512 MiB", "2 GiB".
    static func describe(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }
}
