/// One command-line option, described once: the parser, the validation and the help text
/// are all generated from the table in `OptionSpec.all`, so they cannot drift apart.
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `replace`.
    let long: String
    /// A one-letter alias, e.g. `o` for `-o`.
    let short: Character?
    /// The value's placeholder in help (`FILE`), or nil for a flag that takes no value.
    let valueName: String?
    /// Whether the option may be given more than once.
    let repeatable: Bool
    /// The help text; the first line is what `--help` shows.
    let help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.repeatable = repeatable
        self.help = help
    }

    var takesValue: Bool { valueName != nil }

    /// Every option `snap-poem` understands, in the order `--help` lists them.
    static let all: [OptionSpec] = [
        OptionSpec(
            "replace", short: "r", value: "FIND=REPLACE", repeatable: true,
            help:
                "Replace FIND with REPLACE, also where the OCR misread it (repeatable; all at once, never chained). Write \\= for '=' in FIND."
        ),
        OptionSpec(
            "replacements", value: "FILE", repeatable: true,
            help:
                "Read FIND=REPLACE pairs from FILE, one a line, after the header '# snap-poem replacements v1'; a line starting with '#' is a comment, but a '#' after '=' is part of REPLACE."
        ),
        OptionSpec(
            "ignore-case", short: "i", help: "Match FIND in any letter case; the replacement takes the text's case (LENORE → ALEX)."),
        OptionSpec("substring", help: "Replace FIND inside longer words too (by default 'Lenored' is left alone)."),
        OptionSpec("exact", help: "Turn off OCR-tolerant matching: misreadings such as 'Lenorc' or 'L enore' are left as they are."),
        OptionSpec(
            "strictness", value: "LEVEL",
            help: "How far an OCR misreading of FIND may stray: strict, normal (default) or loose; exact is --exact."),
        OptionSpec("no-cleanup", help: "Keep the text as recognised: no '|' → 'I', ligatures, hyphenation joining or space tidying."),
        OptionSpec("report", help: "List each replacement on standard error: where, what the image said, what it became, OCR confidence."),
        OptionSpec(
            "output", short: "o", value: "FILE", help: "Write the poem to FILE instead of standard output ('-' is standard output)."),
        OptionSpec("force", short: "f", help: "Overwrite an existing output file."),
        OptionSpec(
            "output-dir", value: "DIR",
            help: "Write one file per image into DIR, mirroring folders given as inputs (name.png -> name.txt, by --format)."),
        OptionSpec(
            "jobs", short: "j", value: "N", help: "Read N images at once, one Tesseract engine each (default: the number of cores)."),
        OptionSpec(
            "shard", value: "K/N",
            help:
                "Read only shard K of N of the sorted inputs (round-robin), for running a batch on N machines; auto takes K and N from a Slurm job array, auto/N takes K from a Kubernetes Indexed Job."
        ),
        OptionSpec(
            "keep-extension",
            help: "Name outputs after the whole input name (stanza.jpg -> stanza.jpg.txt), so stanza.jpg and stanza.png never collide."),
        OptionSpec(
            "follow-links",
            help:
                "Also follow symbolic links in folders given as inputs that lead out of those folders (by default they are skipped with a warning; links inside are followed)."
        ),
        OptionSpec(
            "retry-failed",
            help:
                "With --output-dir: read again the inputs that failed before. A rerun otherwise skips inputs done or failed with the same file and options."
        ),
        OptionSpec(
            "per-image-limit", value: "SECONDS",
            help:
                "In a batch, stop the worker reading one image after SECONDS (reading, decoding and recognition); the image fails, the batch goes on (default: 120)."
        ),
        OptionSpec(
            "worker-memory", value: "MB|none",
            help: "In a batch, limit each worker process to MB megabytes of address space (default: 4096, at least 512); none for no limit."
        ),
        OptionSpec(
            "progress", value: "WHEN",
            help: "auto (default: a progress bar when standard error is a terminal), json (JSON Lines events on standard error) or none."),
        OptionSpec("quiet", short: "q", help: "Report errors only: no warnings, progress or summary."),
        OptionSpec(
            "verbose", short: "v", help: "In a batch, also say what became of each image as it finishes, and each one skipped."),
        OptionSpec(
            "check-manifests",
            help:
                "Read no image: report whether the manifests in --output-dir cover every input exactly once (missing, duplicated, failed); exit 1 if not."
        ),
        OptionSpec(
            "format", value: "FORMAT",
            help:
                "Output format: text, markdown, html, json, jsonl, eml, hocr, tsv or alto (default: from --output's extension, else text); jsonl is JSON, one line per image."
        ),
        OptionSpec(
            "to", value: "ADDRESSES", help: "Recipients for --format eml and --mailto, comma-separated: a@b.org or 'Name <a@b.org>'."),
        OptionSpec("subject", value: "TEXT", help: "Subject for --format eml and --mailto (default: the poem's title)."),
        OptionSpec("mailto", help: "Print a mailto: URL with the poem as its body instead of the poem (for the desktop's share path)."),
        OptionSpec("copy", help: "Put the result on the clipboard (wl-copy, xclip or xsel) instead of printing it."),
        OptionSpec(
            "side-by-side",
            help:
                "With --format html: show the photo, with what was read drawn on it, beside the poem; each replaced word links to its box."
        ),
        OptionSpec("lang", short: "l", value: "LANGS", help: "Tesseract languages, '+'-separated (default: eng+fra)."),
        OptionSpec(
            "max-dimension", value: "N|auto|none",
            help:
                "Image size: N shrinks so the longer side is at most N pixels (aspect kept, never enlarges); auto (default) scales the text to about 24 px letters; none keeps the size."
        ),
        OptionSpec(
            "filter", value: "NAME",
            help:
                "Tone filter: flatten (default; evens out shadows and vignettes where there are any), adaptive (always flatten, then pure black and white), black-and-white (the original app's), none."
        ),
        OptionSpec("no-rotate", help: "Do not detect and undo a page turned 90, 180 or 270 degrees."),
        OptionSpec("no-deskew", help: "Do not straighten slightly tilted text."),
        OptionSpec("no-invert", help: "Do not turn light text on a dark background into dark on light."),
        OptionSpec("no-dewarp", help: "Do not flatten the curved lines of a page photographed in an open book."),
        OptionSpec(
            "no-keystone", help: "Do not undo the perspective of a sheet photographed at an angle (its outline seen on a table)."),
        OptionSpec(
            "no-clear-surround", help: "Do not paint over the dark table around a photographed sheet before recognition."),
        OptionSpec(
            "no-coverage-check",
            help: "Do not look for text Tesseract skipped (rows of letters no recognised word covers) and read it again."),
        OptionSpec(
            "engines", value: "N",
            help:
                "Engines that read one image at once, 1 or 2 (default: 2, its lines split between the two cores; a batch uses 1 per worker)."
        ),
        OptionSpec(
            "no-language-choice",
            help: "Read with --lang as given: do not let a French poem, or a French line, be read by the French model alone."),
        OptionSpec(
            "save-preprocessed", value: "FILE.png",
            help: "Also write the image exactly as Tesseract saw it, as PNG (one input only; --force to replace)."),
        OptionSpec(
            "annotate", value: "FILE.png",
            help:
                "Also write the photo with what was read drawn on it, as PNG: word boxes coloured by confidence, replaced words, line numbers, text not read (one input only; --force to replace)."
        ),
        OptionSpec(
            "annotate-page", value: "N",
            help:
                "Of a multi-page TIFF, the page --annotate, --save-preprocessed and --side-by-side show (default: 1, with a warning)."
        ),
        OptionSpec(
            "psm", value: "MODE", help: "Page segmentation mode, by number (0-13) or name, e.g. 3 or auto (default), 6 or single-block."),
        OptionSpec(
            "timeout", value: "SECONDS",
            help: "Stop recognising each image after SECONDS (decimals allowed); partial text is kept, exit 124."),
        OptionSpec(
            "max-marks", value: "N|none",
            help:
                "Refuse a page of more than N separate marks (default: 10000; none: no limit): Tesseract's layout analysis of a page of specks cannot be stopped and can take minutes."
        ),
        OptionSpec(
            "oem", value: "ENGINE", help: "Recogniser: lstm (default), legacy or combined (legacy needs traineddata that includes it)."),
        OptionSpec("dpi", value: "N", help: "Resolution to assume, 70-2400 dots per inch (default: 300)."),
        OptionSpec("allow", value: "CHARS", help: "Recognise only these characters (tessedit_char_whitelist)."),
        OptionSpec("deny", value: "CHARS", help: "Never recognise these characters (tessedit_char_blacklist)."),
        OptionSpec("preserve-spaces", help: "Keep runs of spaces between words instead of single spaces."),
        OptionSpec(
            "region", value: "X,Y,W,H",
            help: "Recognise only this rectangle, in the upright image's pixels (the page is then neither turned nor deskewed)."),
        OptionSpec(
            "config", short: "c", value: "NAME=VALUE", repeatable: true,
            help: "Set a Tesseract variable (repeatable); an unknown name or a value of the wrong type is an error."),
        OptionSpec("list-langs", help: "List the languages in the tessdata folder and exit."),
        OptionSpec(
            "tessdata", value: "DIR",
            help: "Folder holding the .traineddata files (default: $TESSDATA_PREFIX, the package's tessdata/, then the system's)."),
        OptionSpec("help", short: "h", help: "Show this help and exit."),
        OptionSpec("version", help: "Show the version of snap-poem, Tesseract and Leptonica, and exit."),
    ]

    /// Finds an option by its long name.
    static func named(_ long: String) -> OptionSpec? {
        all.first { $0.long == long }
    }
}
