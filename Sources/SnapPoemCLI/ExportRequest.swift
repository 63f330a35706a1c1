import SnapPoem

/// What the command line asks to be done with each poem once it is read: the format, the
/// e-mail headers, and where the result goes besides `--output` (a `mailto:` URL, the
/// clipboard).
struct ExportRequest: Sendable, Equatable {
    /// `--format`, or the one inferred from `--output`'s extension; text by default.
    var format: ExportFormat = .text
    /// `--to`.
    var to: [EmailAddress] = []
    /// `--subject`.
    var subject: String?
    /// `--mailto`: print a `mailto:` URL instead of the poem.
    var mailto = false
    /// `--copy`: put the result on the clipboard instead of standard output.
    var copy = false
    /// `--format jsonl` or `--output FILE.jsonl`: JSON, one line per image, the whole batch
    /// in one stream or file.
    var collectsJSONLines = false
    /// `--side-by-side`: the HTML page shows the annotated photo beside the poem.
    var sideBySide = false

    /// Whether an output path asks for JSON Lines by its extension (`.jsonl`).
    static func collectsJSONLines(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".jsonl")
    }
}

extension CommandOptions {
    /// Binds and checks `--format`, `--to`, `--subject`, `--mailto` and `--copy`, and asks
    /// the scan for the Tesseract rendering the format needs. Runs after inputs and
    /// `--output` are bound.
    mutating func bindExport(_ parsed: ParsedArguments) throws(UsageError) {
        var request = ExportRequest()
        let names = ExportFormat.allCases.flatMap { $0 == .json ? ["json", "jsonl"] : [$0.rawValue] }.joined(separator: ", ")
        let writesFile = output.map { $0 != "-" } ?? false
        if let text = parsed.value("format"), text.lowercased() == "jsonl" {
            request.format = .json
            request.collectsJSONLines = true
        } else if let text = parsed.value("format") {
            guard let format = ExportFormat(rawValue: text.lowercased()) else {
                throw UsageError(message: "Invalid value '\(text)' for '--format <FORMAT>': expected one of \(names).")
            }
            request.format = format
        } else if let output, writesFile, ExportRequest.collectsJSONLines(output) {
            request.format = .json
            request.collectsJSONLines = true
        } else if let output, writesFile {
            guard let format = ExportFormat.inferred(fromPath: output) else {
                throw UsageError(
                    message: "Cannot tell the format of '--output \(output)' from its extension; add '--format <FORMAT>' (\(names)).")
            }
            request.format = format
        }
        request.mailto = parsed.has("mailto")
        request.copy = parsed.has("copy")
        if request.mailto, parsed.has("format") || writesFile {
            throw UsageError(message: "'--mailto' prints a mailto: URL; it cannot be combined with '--format' or '--output'.")
        }
        if request.mailto || request.copy, outputDirectory != nil {
            throw UsageError(message: "'--output-dir' writes files; it cannot be combined with '--mailto' or '--copy'.")
        }
        if request.collectsJSONLines, outputDirectory != nil {
            throw UsageError(
                message: "'--format jsonl' collects a batch in one stream; with '--output-dir' use '--format json' (one file per image).")
        }
        if request.copy, writesFile {
            throw UsageError(message: "'--copy' and '--output' both take the result; choose one.")
        }
        if !request.format.allowsSeveralPoemsInOneStream, inputs.count > 1, outputDirectory == nil {
            throw UsageError(
                message:
                    "'--format \(request.format.rawValue)' makes one document per image, but \(inputs.count) images were given; run snap-poem once per image."
            )
        }
        let takesEmailHeaders = request.mailto || request.format == .eml
        for option in ["to", "subject"] where parsed.has(option) && !takesEmailHeaders {
            throw UsageError(message: "'--\(option)' applies only to '--format eml' and '--mailto'.")
        }
        do throws(SnapPoemError) {
            if let to = parsed.value("to") { request.to = try EmailAddress.list(parsing: to) }
            if let subject = parsed.value("subject") {
                try EmailDraftOptions.validate(subject: subject)
                request.subject = subject
            }
        } catch {
            throw UsageError(message: "Invalid value: \(error.description).")
        }
        if let rendering = request.format.requiredRendering, !request.mailto {
            scan.recognition.renderings.insert(rendering)
        }
        export = request
    }
}
