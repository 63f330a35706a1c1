/// One message for a person about one piece of work: a warning that the image is a
/// multi-page TIFF, an error that the file is empty, the `--report` list of replacements.
///
/// The library says what it found as values; it never prints. A front end prints, escapes
/// and counts them in one place (the command line's `DiagnosticsEngine`), and decides its
/// exit status from the counts of each `Category`. `message` and `subject` are text from
/// outside (file names, OCR text, manifest strings): whoever prints them escapes them
/// (`OneLine.escaping`).
public struct Diagnostic: Sendable, Equatable, Hashable, Codable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Codable, CaseIterable {
        /// Something failed: an image not read, an output not written.
        case error
        /// Something worth a look that did not fail: text still unread, a FIND not found.
        case warning
        /// Information: a shard without images.
        case note
        /// A listing asked for (`--report`): shown even when warnings are not.
        case report
        /// Progress detail only a verbose run shows (an image skipped, files cleaned up).
        case remark
    }

    /// What a diagnostic says went wrong, for a front end to decide its status from (the
    /// command line's exit code). Front ends may add categories of their own.
    public struct Category: RawRepresentable, Sendable, Hashable, Codable {
        /// The category's name.
        public var rawValue: String

        /// Creates a category.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An input could not be read, decoded or recognised.
        public static let input = Category(rawValue: "input")
        /// An output could not be written or rendered.
        public static let output = Category(rawValue: "output")
        /// A time limit cut the work short; what was done is kept.
        public static let timeLimit = Category(rawValue: "time-limit")
        /// The work was cancelled (Ctrl-C).
        public static let cancelled = Category(rawValue: "cancelled")
        /// Tesseract cannot run (tessdata, a language, a variable, memory to start it).
        public static let engine = Category(rawValue: "engine")
        /// An option value is wrong.
        public static let usage = Category(rawValue: "usage")

        /// Encodes as its name.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// Decodes from its name.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }
    }

    /// How serious it is.
    public var severity: Severity
    /// What it says went wrong; nil for diagnostics that change no status (most warnings).
    public var category: Category?
    /// What it is about, shown before the message (`poems/a.png`); nil when the message
    /// names it itself or it is about nothing in particular.
    public var subject: String?
    /// The message, one line.
    public var message: String
    /// Lines that belong under the message (the replacements of a `--report`), one each.
    public var notes: [String]
    /// The setting the message is about, or that would change the outcome (the worker memory
    /// limit an image ran out of): the message says it in words, and a front end may name it
    /// its own way after the message. Nil when none.
    public var setting: Setting?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ message: String, subject: String? = nil, category: Category? = nil, notes: [String] = [],
        setting: Setting? = nil
    ) {
        self.severity = severity
        self.category = category
        self.subject = subject
        self.message = message
        self.notes = notes
        self.setting = setting
    }

    /// The error as a diagnostic: its one-line description (which names the file), in the
    /// category its case calls for (`SnapPoemError.category`), about its setting
    /// (`SnapPoemError.setting`).
    public init(_ error: SnapPoemError) {
        self.init(.error, error.description, category: error.category, setting: error.setting)
    }

    /// The line as a person reads it, without a severity prefix: `subject: message`.
    public var text: String {
        subject.map { "\($0): \(message)" } ?? message
    }
}

extension SnapPoemError {
    /// The diagnostic category of this error: `.cancelled`, `.output` for outputs not
    /// written or rendered, `.usage` for a bad option value, `.engine` when Tesseract
    /// cannot start, `.input` for everything about an image.
    public var category: Diagnostic.Category {
        switch self {
        case .cancelled: .cancelled
        case .outputNotWritten, .exportFailed: .output
        case .invalidLanguage, .invalidOption, .invalidReplacementsFile: .usage
        case .languageNotAvailable, .tessdataNotFound, .engineInitializationFailed, .invalidEngineVariable: .engine
        case .fileNotFound, .unreadableFile, .emptyFile, .unsupportedImageFormat, .corruptImage, .imageTooLarge, .tooManyPages,
            .pagesTooLarge, .recognitionFailed,
            .noImagesInFolder, .unreadableFolder, .workerFailed, .notARegularFile, .fileTooLarge, .outOfMemory, .tooManyMarks,
            .regionOutsideImage:
            .input
        }
    }
}
