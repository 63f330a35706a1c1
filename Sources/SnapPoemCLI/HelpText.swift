/// The text of `--help` and the usage line, generated from `OptionSpec.all` and `ExitCode`.
enum HelpText {
    static let usage = "Usage: snap-poem <image>... [--replace FIND=REPLACE]... [--output FILE] [options]"

    /// The width help text is wrapped to.
    static let width = 100
    /// Where option descriptions start.
    static let descriptionColumn = 26

    static func render() -> String {
        var lines = [
            "OVERVIEW: Read a photographed poem and make it your own.",
            "",
            "snap-poem decodes the photo (PNG, JPEG, TIFF, WebP, BMP, GIF, PNM), turns it upright",
            "from its EXIF orientation, scales it, filters it, recognises the text with Tesseract",
            "and applies your replacements. The poem goes to standard output.",
            "",
            usage.replacingOccurrences(of: "Usage: ", with: "USAGE: "),
            "",
            "ARGUMENTS:",
            "  <image>                 Image file to read, or a folder: every image below it; '-' reads",
            "                          standard input.",
            "",
            "OPTIONS:",
        ]
        lines += optionLines(OptionSpec.all)
        lines += ["", "EXIT CODES:"]
        for code in ExitCode.allCases {
            let wrapped = wrap(code.meaning, width: width - 7).joined(separator: "\n       ")
            lines.append("  " + String(code.rawValue).padding(toLength: 5, withPad: " ", startingAt: 0) + wrapped)
        }
        lines += [
            "",
            "EXAMPLES:",
            "  snap-poem Lenore.png --replace Lenore=Alex",
            "  snap-poem Lenore.png -r Lenore=Alex -o for-alex.html",
            "  snap-poem Lenore.png -r Lenore=Alex --format eml --to alex@example.org -o draft.eml",
            "",
            "SERVICE:",
            "  snap-poem serve          the page and the HTTP API on 127.0.0.1:8080; see 'snap-poem serve --help'",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets
    /// a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
