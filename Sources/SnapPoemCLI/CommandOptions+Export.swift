import SnapPoem

extension CommandOptions {
    /// Binds and checks `--format`, `--to`, `--subject`, `--mailto` and `--copy`. Runs after
    /// inputs and `--output` are bound. The format is the command line's own (it also takes
    /// `jsonl`, and follows `--output`'s extension); the e-mail headers follow the rules the
    /// HTTP service shares (`ExportRequest.apply(_:)`).
    mutating func bindExport(_ parsed: ParsedArguments) throws(UsageError) {
        let names = ExportFormat.allCases.flatMap { $0 == .json ? ["json", "jsonl"] : [$0.rawValue] }.joined(separator: ", ")
        let writesFile = output.map { $0 != "-" } ?? false
        if let text = parsed.value("format"), text.lowercased() == "jsonl" {
            export.format = .json
            collectsJSONLines = true
        } else if let text = parsed.value("format") {
            guard let format = ExportFormat(rawValue: text.lowercased()) else {
                throw UsageError(message: "Invalid value '\(text)' for '--format <FORMAT>': expected one of \(names).")
            }
            export.format = format
        } else if let output, writesFile, Self.collectsJSONLines(output) {
            export.format = .json
            collectsJSONLines = true
        } else if let output, writesFile {
            guard let format = ExportFormat.inferred(fromPath: output) else {
                throw UsageError(
                    message: "Cannot tell the format of '--output \(output)' from its extension; add '--format <FORMAT>' (\(names)).")
            }
            export.format = format
        }
        export.mailtoLink = parsed.has("mailto")
        copy = parsed.has("copy")
        if export.mailtoLink, parsed.has("format") || writesFile {
            throw UsageError(message: "'--mailto' prints a mailto: URL; it cannot be combined with '--format' or '--output'.")
        }
        if export.mailtoLink || copy, outputDirectory != nil {
            throw UsageError(message: "'--output-dir' writes files; it cannot be combined with '--mailto' or '--copy'.")
        }
        if collectsJSONLines, outputDirectory != nil {
            throw UsageError(
                message: "'--format jsonl' collects a batch in one stream; with '--output-dir' use '--format json' (one file per image).")
        }
        if copy, writesFile {
            throw UsageError(message: "'--copy' and '--output' both take the result; choose one.")
        }
        var values: [ExportOption: String] = [:]
        if let to = parsed.value("to") { values[.to] = to }
        if let subject = parsed.value("subject") { values[.subject] = subject }
        try applyExport(values)
    }

    /// Applies export settings by the shared rules, in the command line's words.
    mutating func applyExport(_ values: [ExportOption: String]) throws(UsageError) {
        do throws(ExportOptionError) {
            try export.apply(values)
        } catch {
            switch error {
            case .invalidValue(let option, let value, let expected):
                throw UsageError(message: "Invalid value '\(value)' for '--\(option.rawValue)': expected \(expected).")
            case .rejected(_, let error):
                throw UsageError(message: "Invalid value: \(error.description).")
            case .notApplicable(.sideBySide):
                throw UsageError(
                    message: "'--side-by-side' lays out an HTML page; use it with '--format html' or an '--output' ending in .html.")
            case .notApplicable(let option):
                throw UsageError(message: "'--\(option.rawValue)' applies only to '--format eml' and '--mailto'.")
            }
        }
    }

    /// Whether an output path asks for JSON Lines by its extension (`.jsonl`).
    static func collectsJSONLines(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".jsonl")
    }
}
