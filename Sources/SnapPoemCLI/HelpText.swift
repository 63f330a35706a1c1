/// The text of `--help` and the usage line, generated from `OptionSpec.all` and `ExitCode`.
enum HelpText {
    static let usage = "Usage: snap-poem <image>... [--replace FIND=REPLACE]... [--output FILE] [options]"

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
            "  <image>                 Image file to read; '-' reads standard input.",
            "",
            "OPTIONS:",
        ]
        for spec in OptionSpec.all {
            var flag = spec.short.map { "-\($0), " } ?? "    "
            flag += "--\(spec.long)"
            if let value = spec.valueName { flag += " \(value)" }
            let padded = flag.count < 24 ? flag.padding(toLength: 24, withPad: " ", startingAt: 0) : flag + "\n" + String(repeating: " ", count: 26)
            lines.append("  " + padded + spec.help)
        }
        lines += ["", "EXIT CODES:"]
        for code in ExitCode.allCases {
            lines.append("  " + String(code.rawValue).padding(toLength: 5, withPad: " ", startingAt: 0) + code.meaning)
        }
        lines += [
            "",
            "EXAMPLES:",
            "  snap-poem Lenore.png --replace Lenore=Alex",
            "  snap-poem Lenore.png -r Lenore=Alex -o for-alex.html",
            "  snap-poem Lenore.png -r Lenore=Alex --format eml --to alex@example.org -o draft.eml",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
