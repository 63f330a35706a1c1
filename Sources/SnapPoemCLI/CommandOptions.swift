import SnapPoem

/// The command line, bound to typed values and validated. Built from `ParsedArguments`.
struct CommandOptions: Sendable, Equatable {
    /// Image paths, `-` for standard input.
    var inputs: [String] = []
    /// Output path; nil or `-` means standard output.
    var output: String?
    /// Overwrite an existing output.
    var force = false
    /// What each scan does.
    var scan = ScanConfiguration()
    /// What is made of each poem, and where it goes (`--format`, `--mailto`, `--copy`, …).
    var export = ExportRequest()
    /// `--help` was asked for.
    var showHelp = false
    /// `--version` was asked for.
    var showVersion = false

    /// Gives each parsed value its type, checking ranges and consistency.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        showHelp = parsed.has("help")
        showVersion = parsed.has("version")
        if showHelp || showVersion { return }
        inputs = parsed.positionals
        guard !inputs.isEmpty else { throw UsageError(message: "Missing expected argument '<image>'.") }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "Standard input ('-') can be read only once.")
        }
        output = parsed.value("output")
        force = parsed.has("force")
        if let output, output != "-", inputs.count > 1 {
            throw UsageError(message: "'--output \(output)' takes one image, but \(inputs.count) were given; omit --output to print them all.")
        }
        if let output, inputs.contains(output), output != "-" {
            throw UsageError(message: "'--output \(output)' is also an input; snap-poem never overwrites an image.")
        }

        do throws(SnapPoemError) {
            scan.replacements = ReplacementSet(try (parsed.values["replace"] ?? []).map { argument throws(SnapPoemError) in
                try Replacement(parsing: argument)
            })
            if let languages = parsed.value("lang") {
                scan.engine.languages = try LanguageSet(parsing: languages)
            }
        } catch {
            throw UsageError(message: "Invalid value: \(error.description).")
        }
        scan.engine.tessdataDirectory = parsed.value("tessdata")

        if let text = parsed.value("max-dimension") {
            guard let side = Int(text), side >= 16 else {
                throw UsageError(message: "Invalid value '\(text)' for '--max-dimension <N>': expected a whole number of pixels, at least 16.")
            }
            scan.preprocessing.scaling = .maxDimension(side)
        }
        if let text = parsed.value("filter") {
            guard let filter = ImageFilter(rawValue: text) else {
                let names = ImageFilter.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(message: "Invalid value '\(text)' for '--filter <NAME>': expected one of \(names).")
            }
            scan.preprocessing.filter = filter
        }
        if let text = parsed.value("psm") {
            guard let mode = PageSegmentationMode(argument: text) else {
                throw UsageError(message: "Invalid value '\(text)' for '--psm <MODE>': expected 0-13 or a name such as auto, single-block, single-line.")
            }
            scan.recognition.pageSegmentation = mode
        }
        if let text = parsed.value("timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UsageError(message: "Invalid value '\(text)' for '--timeout <SECONDS>': expected a number of seconds greater than 0.")
            }
            scan.recognition.timeLimit = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        try bindExport(parsed)
    }
}
