import SnapPoem

extension CommandOptions {
    /// Binds the options that say what each scan does (`ScanOption`, the rules the HTTP
    /// service shares) and the pairs of `--replacements` files, read before those of
    /// `--replace`.
    mutating func bindScan(_ parsed: ParsedArguments) throws(UsageError) {
        var values: [ScanOption: [String]] = [:]
        for option in ScanOption.allCases {
            if let given = parsed.values[option.name] { values[option] = given }
        }
        var filePairs: [(replacement: Replacement, source: String)] = []
        do throws(SnapPoemError) {
            for path in parsed.values["replacements"] ?? [] {
                let file = try ReplacementsFile.read(path: path)
                filePairs += file.replacements.map { ($0, path) }
                replacementsDigests.append(ContentHash.of(file.contents))
            }
        } catch {
            if case .invalidOption = error { throw UsageError(message: "Invalid value: \(error.commandLineDescription()).") }
            throw UsageError(message: error.description)
        }
        do throws(ScanOptionError) {
            try scan.apply(values, replacementSource: { "--replace \($0)" }, leadingReplacements: filePairs)
        } catch {
            throw UsageError(message: Self.message(for: error))
        }
        // Every value was taken by `apply`: each parses.
        deletingReplacements = (values[.replace] ?? []).filter { (try? Replacement(parsing: $0))?.replacement.isEmpty == true }
    }

    /// The warning for a `--replace FIND=` with nothing after `=`: FIND is deleted.
    static func deletionWarning(_ argument: String) -> Diagnostic {
        let find = (try? Replacement(parsing: argument))?.find ?? argument
        return Diagnostic(
            .warning,
            "'--replace \(argument)' has nothing after '=': '\(find)' is deleted from the poem, not replaced (an empty shell variable does this)"
        )
    }

    /// The value of `--max-marks` (the command's and `serve`'s): a whole number of at least
    /// 1, or `none` for no limit (nil).
    static func markLimit(_ text: String) throws(UsageError) -> Int? {
        if text == "none" { return nil }
        guard let limit = Int(text), limit >= 1 else {
            throw UsageError(message: "Invalid value '\(text)' for '--max-marks <N|none>': expected a whole number of at least 1, or none.")
        }
        return limit
    }

    /// A `ScanOptionError` in the command line's words: `Invalid value 'x' for '--dpi <N>': …`.
    static func message(for error: ScanOptionError) -> String {
        func spelled(_ option: ScanOption) -> String {
            let placeholder = OptionSpec.named(option.name)?.valueName.map { " <\($0)>" } ?? ""
            return "'--\(option.name)\(placeholder)'"
        }
        switch error {
        case .invalidValue(let option, let value, let expected):
            return "Invalid value '\(value)' for \(spelled(option)): expected \(expected)."
        case .rejected(_, let error):
            return "Invalid value: \(error.commandLineDescription())."
        case .conflict(let option, let value, let other):
            return "'--\(option.name) \(value)' cannot be combined with '--\(other.name)'."
        case .replacedTwice(let find, let first, let firstSource, let second, let secondSource):
            return "'\(find)' is replaced twice, by '\(first)' (\(firstSource)) and by '\(second)' (\(secondSource))."
        case .tooManyPairs(let count):
            return
                "\(count) replacement pairs were given; snap-poem takes at most \(ReplacementSet.maximumPairs) (each pair is tried against every word of the poem)."
        }
    }
}
