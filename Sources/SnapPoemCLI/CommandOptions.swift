import Foundation
import SnapPoem

/// The command line, bound to typed values and validated. Built from `ParsedArguments`.
struct CommandOptions: Sendable, Equatable {
    /// Image paths, `-` for standard input.
    var inputs: [String] = []
    /// Output path; nil or `-` means standard output.
    var output: String?
    /// Overwrite an existing output.
    var force = false
    /// `--output-dir`: one file per image in this folder.
    var outputDirectory: String?
    /// `--jobs`: images read at once.
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// `--shard K/N`: the part of the batch this run reads.
    var shard: Shard?
    /// Where to write the preprocessed image (`--save-preprocessed`).
    var savePreprocessed: String?
    /// Where to write the annotated image (`--annotate`).
    var annotate: String?
    /// What each scan does.
    var scan = ScanConfiguration()
    /// What is made of each poem (`--format`, `--to`, `--mailto`, `--side-by-side`,
    /// `--report`, …): the library's request, shared with the service and the workers.
    var export = ExportRequest()
    /// `--copy`: put the result on the clipboard instead of standard output.
    var copy = false
    /// `--format jsonl` or `--output FILE.jsonl`: JSON, one line per image, the whole batch
    /// in one stream or file.
    var collectsJSONLines = false
    /// The digest of each `--replacements` file, in the order given, of the bytes its pairs
    /// were read from (for the options hash).
    var replacementsDigests: [String] = []
    /// `--help` was asked for.
    var showHelp = false
    /// `--version` was asked for.
    var showVersion = false
    /// `--version --verbose`: the version, and which of the executable's overrides of library
    /// functions are in effect (`ProcessOverrides.report`).
    var showsOverrides = false
    /// `--list-langs` was asked for.
    var listLanguages = false
    /// How a batch runs: resume, worker limits, progress, verbosity (`CommandOptions+Batch.swift`).
    var batch = BatchOptions()
    /// The `--replace` values whose REPLACE is empty (`Lenore=`): FIND is deleted from the
    /// poem, which the command warns about (an unset shell variable gives it by mistake).
    var deletingReplacements: [String] = []

    /// Gives each parsed value its type, checking ranges and consistency.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        showHelp = parsed.has("help")
        showVersion = parsed.has("version")
        showsOverrides = showVersion && parsed.has("verbose")
        listLanguages = parsed.has("list-langs")
        for option in ["output", "output-dir", "save-preprocessed", "replacements", "tessdata"] {
            for value in parsed.values[option] ?? [] where value.isEmpty {
                let name = OptionSpec.named(option)?.valueName ?? "VALUE"
                throw UsageError(message: "Invalid value '' for '--\(option) <\(name)>': the name is empty.")
            }
        }
        scan.engine.tessdataDirectory = parsed.value("tessdata")
        if showHelp || showVersion || listLanguages { return }
        inputs = parsed.positionals
        guard !inputs.isEmpty else { throw UsageError(message: "Missing expected argument '<image>'.") }
        guard !inputs.contains("") else { throw UsageError(message: "An '<image>' argument is empty; name a file, a folder, or '-'.") }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "Standard input ('-') can be read only once.")
        }
        output = parsed.value("output")
        force = parsed.has("force")
        outputDirectory = parsed.value("output-dir")
        if outputDirectory != nil, output != nil {
            throw UsageError(message: "'--output' and '--output-dir' both say where results go; choose one.")
        }
        if let text = parsed.value("jobs") {
            guard let jobs = Int(text), (1...64).contains(jobs) else {
                throw UsageError(message: "Invalid value '\(text)' for '--jobs <N>': expected a whole number from 1 to 64.")
            }
            self.jobs = jobs
        }
        if let text = parsed.value("shard"), !text.hasPrefix("auto") {
            do throws(SnapPoemError) {
                shard = try Shard(parsing: text)
            } catch {
                throw UsageError(message: "Invalid value '\(text)' for '--shard <K/N>': expected K/N with 1 ≤ K ≤ N, e.g. 2/8.")
            }
        }
        if let output, inputs.contains(output), output != "-" {
            throw UsageError(message: "'--output \(output)' is also an input; snap-poem never overwrites an image.")
        }

        // What each scan does: the rules shared with the HTTP service (ScanOption).
        try bindScan(parsed)
        if let text = parsed.value("max-marks") { scan.recognition.markLimit = try Self.markLimit(text) }
        export.listsChanges = parsed.has("report")

        if let path = parsed.value("save-preprocessed") {
            guard path != "-", !inputs.contains(path), path != output else {
                throw UsageError(
                    message: "'--save-preprocessed \(path)' must name a new file, not standard output, an input or the --output file.")
            }
            savePreprocessed = path
            export.images.insert(.preprocessed)
        }
        for assignment in parsed.values["config"] ?? [] {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError(message: "Invalid value '\(assignment)' for '-c <NAME=VALUE>': expected NAME=VALUE.")
            }
            scan.engine.variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        try bindExport(parsed)
        try bindAnnotation(parsed)
        export.prepare(&scan)
        try bindBatch(parsed)
        if let problem = oneImageProblem(count: inputs.count, found: false) { throw UsageError(message: problem) }
    }

    /// The options that take one image, checked in one place: on the images given (while
    /// binding, `found` false) and again on those that folders and shards expanded to
    /// (`found` true), each time with what to do instead.
    func oneImageProblem(count: Int, found: Bool) -> String? {
        guard count > 1 else { return nil }
        let counted = found ? "found" : "given"
        if let path = savePreprocessed {
            return "'--save-preprocessed \(path)' takes one image, but \(count) were \(counted)."
        }
        if let path = annotate {
            return
                "'--annotate \(path)' takes one image, but \(count) were \(counted); for a batch, '--format html --side-by-side --output-dir DIR' writes a page per image with the annotated photo in it."
        }
        guard outputDirectory == nil else { return nil }
        if let output, output != "-", !collectsJSONLines {
            let instead =
                found
                ? "use '--output-dir DIR' for several, or '--output FILE.jsonl' for one JSON Lines file" : "omit --output to print them all"
            return "'--output \(output)' takes one image, but \(count) were \(counted); \(instead)."
        }
        if !export.format.allowsSeveralPoemsInOneStream {
            let instead = found ? "use '--output-dir DIR'" : "run snap-poem once per image"
            return "'--format \(export.format.rawValue)' makes one document per image, but \(count) images were \(counted); \(instead)."
        }
        return nil
    }

    /// `--report`: list each replacement on standard error.
    var report: Bool { export.listsChanges }
}
