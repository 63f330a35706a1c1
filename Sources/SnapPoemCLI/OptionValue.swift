import SnapPoem

/// What an option's value is, for the shell completions and the manual page.
///
/// The option table (`OptionSpec.all`, `ServeCommand.options`) says which options take a
/// value; this says what to offer for it. The words of `choices` come from the library's and
/// the parser's own lists (`ExportFormat.allCases`, `PageSegmentationMode`, `Strictness.named`,
/// …), so a new format or mode is offered as soon as the parser takes it. `OptionValueTests`
/// checks that every option taking a value has an entry here, and that no entry names an
/// option the table lacks.
enum OptionValue: Sendable, Equatable {
    /// Anything the user types (a number, a pair, an address, text): nothing to offer.
    case text
    /// One of these words (other values may be accepted too, e.g. a number of pixels).
    case choices([Choice])
    /// A file name; any file when `extensions` is empty, else files with one of these
    /// extensions (and folders, to walk into).
    case file(extensions: [String])
    /// A folder.
    case folder
    /// Languages of the tessdata folder in use, `+`-separated (`snap-poem --list-langs`).
    case languages

    /// A word a value may be, with a short note shown beside it by zsh and fish.
    struct Choice: Sendable, Equatable {
        /// The word as typed, e.g. `single-block`.
        let word: String
        /// What it means, e.g. `6`; empty when the word says it all.
        let note: String

        init(_ word: String, _ note: String = "") {
            self.word = word
            self.note = note
        }
    }

    /// The words of `choices`, or none.
    var words: [String] {
        guard case .choices(let choices) = self else { return [] }
        return choices.map(\.word)
    }

    // The tables below are built on each use, never kept in statics: an `OptionValue` keeps
    // the case in the spare bits of its payload's reference, which LeakSanitizer cannot
    // follow from a global, so it reported their arrays as leaked at every exit.

    /// The value of each option of `snap-poem` (reading images) that takes one, by long name.
    static var scan: [String: OptionValue] {
        [
            "replace": .text,
            "replacements": .file(extensions: []),
            "strictness": .choices(Strictness.named.map { Choice($0.name, $0.name == "normal" ? "the default" : "") }),
            "output": .file(extensions: []),
            "output-dir": .folder,
            "jobs": .text,
            "shard": .choices([Choice("auto", "K and N from a Slurm job array; auto/N: K from a Kubernetes Indexed Job")]),
            "per-image-limit": .text,
            "worker-memory": .choices([Choice("none", "no limit")]),
            "progress": .choices(BatchOptions.Progress.allCases.map { Choice($0.rawValue) }),
            "format": .choices(formats),
            "to": .text,
            "subject": .text,
            "lang": .languages,
            "max-dimension": .choices([Choice("auto", "about 24 px letters, the default"), Choice("none", "keep the size")]),
            "filter": .choices(ImageFilter.allCases.map { Choice($0.rawValue, $0 == .flatten ? "the default" : "") }),
            "save-preprocessed": .file(extensions: ["png"]),
            "annotate": .file(extensions: ["png"]),
            "annotate-page": .text,
            "psm": .choices(pageSegmentationModes),
            "timeout": .text,
            "max-marks": .choices([Choice("none", "no limit")]),
            "oem": .choices(EngineMode.allCases.map { Choice($0.rawValue, $0 == .lstm ? "the default" : "") }),
            "dpi": .text,
            "engines": .choices([Choice("1", "one engine per image"), Choice("2", "lines split between two engines, the default")]),
            "plain-reading": .choices([
                Choice("auto", "where preparing changed the image and its reading is in doubt, the default"),
                Choice("always", "read both ways for every image"), Choice("never", "keep the prepared reading"),
            ]),
            "allow": .text,
            "deny": .text,
            "region": .text,
            "config": .text,
            "tessdata": .folder,
        ]
    }

    /// The value of each option of `snap-poem serve` that takes one, by long name.
    static var serve: [String: OptionValue] {
        [
            "host": .choices([Choice("127.0.0.1", "this machine only"), Choice("0.0.0.0", "every IPv4 interface")]),
            "port": .text,
            "jobs": .text,
            "queue": .text,
            "max-upload-mb": .text,
            "memory-mb": .text,
            "timeout": .text,
            "max-marks": .choices([Choice("none", "no limit")]),
            "lang": .languages,
            "tessdata": .folder,
            "max-connections": .text,
            "idle-timeout": .text,
            "header-timeout": .text,
            "request-timeout": .text,
            "address-share": .text,
            "stop-timeout": .text,
        ]
    }

    /// What an image argument may be: a file with one of the extensions taken from folders
    /// (`BatchInput.imageExtensions`), or a folder.
    static var image: OptionValue { .file(extensions: BatchInput.imageExtensions.sorted()) }

    /// `--format`: every `ExportFormat`, and `jsonl` after `json`, each noted with its extension.
    static let formats: [Choice] = ExportFormat.allCases.flatMap { format -> [Choice] in
        let choice = Choice(format.rawValue, "." + format.fileExtension)
        return format == .json ? [choice, Choice("jsonl", ".jsonl, one line per image")] : [choice]
    }

    /// `--psm`: each mode by name (noted with its number) and by number (noted with its name).
    static let pageSegmentationModes: [Choice] =
        PageSegmentationMode.allCases.map { Choice($0.name, String($0.rawValue)) }
        + PageSegmentationMode.allCases.map { Choice(String($0.rawValue), $0.name) }
}

extension OptionSpec {
    /// The first clause of the help text, for the completions' one-line descriptions: what
    /// stands in parentheses is left out, and the text ends at the first '; ' or the first
    /// '. ' that does not end "e.g." or "i.e.".
    var summary: String {
        var text = ""
        var depth = 0
        for character in help {
            if character == "(" {
                depth += 1
                if text.last == " " { text.removeLast() }
            } else if character == ")" {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                text.append(character)
            }
        }
        if let range = text.range(of: "; ") { text = String(text[..<range.lowerBound]) }
        var searchStart = text.startIndex
        while let range = text.range(of: ". ", range: searchStart..<text.endIndex) {
            let before = text[..<range.lowerBound]
            if before.hasSuffix("e.g") || before.hasSuffix("i.e") {
                searchStart = range.upperBound
                continue
            }
            text = String(before)
            break
        }
        while text.hasSuffix(".") || text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
