extension HelpText {
    /// The help lines of `specs`: flags, placeholder, and the description wrapped beside them.
    static func optionLines(_ specs: [OptionSpec]) -> [String] {
        specs.map { spec in
            var flag = spec.short.map { "-\($0), " } ?? "    "
            flag += "--\(spec.long)"
            if let value = spec.valueName { flag += " \(value)" }
            let indent = String(repeating: " ", count: descriptionColumn)
            let wrapped = wrap(spec.help, width: width - descriptionColumn).joined(separator: "\n" + indent)
            let padded = flag.count < 24 ? flag.padding(toLength: 24, withPad: " ", startingAt: 0) : flag + "\n" + indent
            return "  " + padded + wrapped
        }
    }
}
