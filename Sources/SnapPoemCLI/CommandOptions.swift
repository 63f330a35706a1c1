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
    /// What each scan does.
    var scan = ScanConfiguration()
    /// What is made of each poem, and where it goes (`--format`, `--mailto`, `--copy`, …).
    var export = ExportRequest()
    /// `--help` was asked for.
    var showHelp = false
    /// `--version` was asked for.
    var showVersion = false
    /// `--list-langs` was asked for.
    var listLanguages = false
    /// `--report`: list each replacement on standard error.
    var report = false

    /// Gives each parsed value its type, checking ranges and consistency.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        showHelp = parsed.has("help")
        showVersion = parsed.has("version")
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
        if let text = parsed.value("shard") {
            do throws(SnapPoemError) {
                shard = try Shard(parsing: text)
            } catch {
                throw UsageError(message: "Invalid value '\(text)' for '--shard <K/N>': expected K/N with 1 ≤ K ≤ N, e.g. 2/8.")
            }
        }
        if let output, output != "-", inputs.count > 1 {
            throw UsageError(
                message: "'--output \(output)' takes one image, but \(inputs.count) were given; omit --output to print them all.")
        }
        if let output, inputs.contains(output), output != "-" {
            throw UsageError(message: "'--output \(output)' is also an input; snap-poem never overwrites an image.")
        }

        scan.replacements = try Self.replacementSet(parsed)
        if parsed.has("no-cleanup") { scan.cleanup = .layoutOnly }
        report = parsed.has("report")

        do throws(SnapPoemError) {
            if let languages = parsed.value("lang") {
                scan.engine.languages = try LanguageSet(parsing: languages)
            }
        } catch {
            throw UsageError(message: "Invalid value: \(error.description).")
        }

        if let text = parsed.value("max-dimension") {
            switch text {
            case "auto": scan.preprocessing.scaling = .automatic
            case "none": scan.preprocessing.scaling = .original
            default:
                guard let side = Int(text), side >= 16 else {
                    throw UsageError(
                        message:
                            "Invalid value '\(text)' for '--max-dimension <N|auto|none>': expected a whole number of pixels (at least 16), auto or none."
                    )
                }
                scan.preprocessing.scaling = .maxDimension(side)
            }
        }
        scan.preprocessing.detectsOrientation = !parsed.has("no-rotate")
        scan.preprocessing.deskews = !parsed.has("no-deskew")
        scan.preprocessing.invertsLightText = !parsed.has("no-invert")
        if let path = parsed.value("save-preprocessed") {
            guard inputs.count == 1 else {
                throw UsageError(message: "'--save-preprocessed \(path)' takes one image, but \(inputs.count) were given.")
            }
            guard path != "-", !inputs.contains(path), path != output else {
                throw UsageError(
                    message: "'--save-preprocessed \(path)' must name a new file, not standard output, an input or the --output file.")
            }
            savePreprocessed = path
            scan.keepsPreprocessedImage = true
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
                throw UsageError(
                    message: "Invalid value '\(text)' for '--psm <MODE>': expected 0-13 or a name such as auto, single-block, single-line.")
            }
            scan.recognition.pageSegmentation = mode
        }
        if let text = parsed.value("oem") {
            guard let mode = EngineMode(rawValue: text) else {
                throw UsageError(message: "Invalid value '\(text)' for '--oem <ENGINE>': expected lstm, legacy or combined.")
            }
            scan.engine.engineMode = mode
        }
        if let text = parsed.value("dpi") {
            guard let dpi = Int(text), (70...2400).contains(dpi) else {
                throw UsageError(message: "Invalid value '\(text)' for '--dpi <N>': expected a whole number from 70 to 2400.")
            }
            scan.recognition.dotsPerInch = dpi
        }
        scan.recognition.allowedCharacters = parsed.value("allow")
        scan.recognition.deniedCharacters = parsed.value("deny")
        scan.recognition.preserveInterwordSpaces = parsed.has("preserve-spaces")
        if let text = parsed.value("region") {
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
                (0...65_000).contains(x), (0...65_000).contains(y), (1...65_000).contains(width), (1...65_000).contains(height)
            else {
                throw UsageError(
                    message: "Invalid value '\(text)' for '--region <X,Y,W,H>': expected four whole numbers up to 65000, e.g. 0,0,800,600.")
            }
            scan.recognition.regionOfInterest = BoundingBox(left: x, top: y, right: x + width, bottom: y + height)
        }
        for assignment in parsed.values["config"] ?? [] {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError(message: "Invalid value '\(assignment)' for '-c <NAME=VALUE>': expected NAME=VALUE.")
            }
            scan.engine.variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
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
