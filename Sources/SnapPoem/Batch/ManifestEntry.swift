import Foundation

/// One line of a batch manifest (`OUT/manifest.jsonl`): what happened to one input, as
/// described key by key in `Docs/batches.md`.
///
/// Every key is written on every line, `null` where there is no value, in alphabetical
/// order, so that `jq` filters and line-oriented tools see one shape. New keys may be added within a
/// version; renaming or removing one raises `schemaVersion`.
public struct ManifestEntry: Sendable, Equatable, Codable {
    /// The version of this layout that this type writes.
    public static let currentSchemaVersion = 1

    /// What happened to an input.
    public enum Status: String, Sendable, Equatable, Codable, CaseIterable {
        /// Read and its output written.
        case ok
        /// Not read, or its output not written; `error` says why.
        case failed
        /// Read until `--timeout` stopped recognition; the partial text was written.
        case timedOut = "timed-out"
        /// Interrupted while it was being read; nothing was written for it.
        case cancelled
        /// Not read again: done before with the same content and options, output present.
        case skipped

        /// Whether the input's output is in place from this or an earlier run.
        public var isDone: Bool { self == .ok || self == .skipped || self == .timedOut }
    }

    /// Which side of a failure was at fault, which decides whether a rerun tries again.
    public enum Failure: String, Sendable, Equatable, Codable {
        /// The input could not be read, decoded or recognised (a worker crash or the
        /// per-image limit included): the same bytes would most likely fail again, so a rerun
        /// tries only with `--retry-failed`.
        case input
        /// The output could not be written (it existed, permission, disk full): a rerun tries
        /// again by itself.
        case output
    }

    /// Milliseconds spent on one input, as measured by the worker.
    public struct Timings: Sendable, Equatable, Codable {
        /// Reading the file and decoding the image.
        public var decodeMs: Int
        /// Preprocessing, orientation detection included.
        public var preprocessMs: Int
        /// Tesseract's layout analysis and recognition.
        public var recognizeMs: Int
        /// The text coverage check after recognition, re-reading included.
        public var coverageCheckMs: Int
        /// Find/replace.
        public var personalizeMs: Int
        /// The worker's whole time on the input, rendering included.
        public var totalMs: Int

        /// Creates a timing record.
        public init(decodeMs: Int, preprocessMs: Int, recognizeMs: Int, coverageCheckMs: Int = 0, personalizeMs: Int, totalMs: Int) {
            self.decodeMs = decodeMs
            self.preprocessMs = preprocessMs
            self.recognizeMs = recognizeMs
            self.coverageCheckMs = coverageCheckMs
            self.personalizeMs = personalizeMs
            self.totalMs = totalMs
        }

        /// The stages' times, and `total` for the whole of the work.
        public init(_ stages: StageTimings?, total: Duration) {
            self.init(
                decodeMs: stages?.decode.wholeMilliseconds ?? 0, preprocessMs: stages?.preprocess.wholeMilliseconds ?? 0,
                recognizeMs: stages?.recognize.wholeMilliseconds ?? 0, coverageCheckMs: stages?.coverageCheck.wholeMilliseconds ?? 0,
                personalizeMs: stages?.personalize.wholeMilliseconds ?? 0, totalMs: total.wholeMilliseconds)
        }

        enum CodingKeys: String, CodingKey { case decodeMs, preprocessMs, recognizeMs, coverageCheckMs, personalizeMs, totalMs }

        /// Reads a record; `coverageCheckMs`, added later, is 0 when absent.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            decodeMs = try container.decode(Int.self, forKey: .decodeMs)
            preprocessMs = try container.decode(Int.self, forKey: .preprocessMs)
            recognizeMs = try container.decode(Int.self, forKey: .recognizeMs)
            coverageCheckMs = try container.decodeIfPresent(Int.self, forKey: .coverageCheckMs) ?? 0
            personalizeMs = try container.decode(Int.self, forKey: .personalizeMs)
            totalMs = try container.decode(Int.self, forKey: .totalMs)
        }
    }

    /// The coverage check's findings for one image, as the manifest keeps them.
    public struct Coverage: Sendable, Equatable, Codable {
        /// `complete`: every row of text-like ink is covered by a recognised word.
        public var complete: Bool
        /// `coveredBeforeReread`: the share of text-like ink (0–1) Tesseract's first reading covered.
        public var coveredBeforeReread: Double
        /// `coveredAfterReread`: the share covered once uncovered rows were read again.
        public var coveredAfterReread: Double
        /// `linesReread`: lines recovered by reading uncovered rows again.
        public var linesReread: Int
        /// `unreadRegions`: regions of text-like ink still not read.
        public var unreadRegions: Int

        /// Summarises a coverage check's result.
        public init(_ coverage: TextCoverage) {
            self.complete = coverage.isComplete
            self.coveredBeforeReread = coverage.coveredBeforeReread
            self.coveredAfterReread = coverage.coveredAfterReread
            self.linesReread = coverage.recoveredLineCount
            self.unreadRegions = coverage.unreadRegions.count
        }
    }

    /// An output file snap-poem wrote for an input, as the manifest remembers it: its path
    /// relative to the output folder and the hash of its bytes as written.
    public struct WrittenOutput: Sendable, Equatable, Codable {
        /// `output`: the file, relative to the output folder.
        public var output: String
        /// `outputHash`: `sha256:` digest of the file as written.
        public var outputHash: String

        /// Creates a record of a written output.
        public init(output: String, outputHash: String) {
            self.output = output
            self.outputHash = outputHash
        }
    }

    /// The most outputs `earlierOutputs` remembers for one input: one per output name the
    /// input can have (a format's extension, with and without `--keep-extension`) is fewer.
    public static let earlierOutputsLimit = 32

    /// The most `warnings`, and the most `messages`, an entry keeps (the first ones): an
    /// image gets a handful. A line read with more keeps these (a manifest someone else
    /// wrote could list hundreds of thousands of empty strings in one line, each costing
    /// memory far beyond its two bytes).
    public static let listLimit = 64

    /// The longest reason a rerun or `--check-manifests` quotes from an entry's `error`
    /// (`recordedReason`), in characters (Unicode scalars, as `OneLine.excerpt` counts).
    public static let quotedReasonLimit = 300

    /// `schemaVersion`: 1.
    public var schemaVersion: Int
    /// `input`: the path relative to the folder argument it was found in (as given, for a
    /// file named directly); the key that identifies the input across runs.
    public var input: String
    /// `path`: the path as it was read.
    public var path: String
    /// `contentHash`: `sha256:` and the hex digest of the bytes read; null when the file
    /// could not be read.
    public var contentHash: String?
    /// `optionsHash`: `sha256:` digest of everything that shapes the output (options,
    /// replacement files, versions); see `Docs/batches.md`.
    public var optionsHash: String
    /// `status`: `ok`, `failed`, `timed-out`, `cancelled` or `skipped`.
    public var status: Status
    /// `error`: the one-line reason, for `failed` (and `cancelled`).
    public var error: String?
    /// `failure`: `input` or `output`, for `failed`.
    public var failure: Failure?
    /// `output`: the output file, relative to the output folder.
    public var output: String?
    /// `outputHash`: digest of the output file as written, so a later run can tell its own
    /// untouched output from a file someone changed.
    public var outputHash: String?
    /// `earlierOutputs`: the other outputs snap-poem wrote for the input in earlier runs
    /// (under other options: another `--format`, `--keep-extension`), each with its hash as
    /// written, latest first, at most `earlierOutputsLimit`. A rerun recognises each as its
    /// own while it is untouched, as it does `output`.
    public var earlierOutputs: [WrittenOutput]
    /// `meanConfidence`: Tesseract's mean word confidence, 0–100.
    public var meanConfidence: Int?
    /// `hasText`: whether any word was found.
    public var hasText: Bool?
    /// `coverage`: what the text coverage check found (`TextCoverage`, summarised); null when
    /// the check did not run or nothing was read. `complete: false` marks a page a person
    /// should look at.
    public var coverage: Coverage?
    /// `warnings`: the warnings reported for the input (one line each, without prefix).
    public var warnings: [String]
    /// `messages`: what the image libraries printed while reading it (`libpng error: …`,
    /// `Premature end of JPEG file`), captured from the worker.
    public var messages: [String]
    /// `timings`: where the time went; null when nothing was read.
    public var timings: Timings?
    /// `pages`: how many pages the input has (1 for an image, more for a multi-page TIFF,
    /// every page of which is in the one output); null when it could not be opened.
    public var pages: Int?
    /// `failedPages`: the pages (from 1) of a multi-page input that could not be read (each
    /// one's error is among `warnings`); the others were written. A rerun reads the input
    /// again only with `--retry-failed`, as for `timed-out`. Empty for most inputs.
    public var failedPages: [Int] = []
    /// `finishedAt`: when the line was written, ISO 8601 in UTC.
    public var finishedAt: String

    enum CodingKeys: String, CodingKey {
        case schemaVersion, input, path, contentHash, optionsHash, status, error, failure, output, outputHash, earlierOutputs
        case meanConfidence, hasText, coverage, warnings, messages, timings, finishedAt, pages, failedPages
    }

    /// Creates an entry stamped with the current time.
    public init(
        input: String, path: String, contentHash: String?, optionsHash: String, status: Status, error: String? = nil,
        failure: Failure? = nil, output: String? = nil, outputHash: String? = nil, meanConfidence: Int? = nil, hasText: Bool? = nil,
        warnings: [String] = [], messages: [String] = [], timings: Timings? = nil, finishedAt: Date = Date()
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.input = input
        self.path = path
        self.contentHash = contentHash
        self.optionsHash = optionsHash
        self.status = status
        self.error = error
        self.failure = failure
        self.output = output
        self.outputHash = outputHash
        self.earlierOutputs = []
        self.meanConfidence = meanConfidence
        self.hasText = hasText
        self.coverage = nil
        self.warnings = Array(warnings.prefix(Self.listLimit))
        self.messages = Array(messages.prefix(Self.listLimit))
        self.timings = timings
        self.finishedAt = Self.timestamp(finishedAt)
    }

    /// Reads an entry; `earlierOutputs`, `warnings` and `messages` may be absent, everything
    /// else as written. Of a list longer than an entry keeps (`earlierOutputsLimit`,
    /// `listLimit`), the first are kept; a `finishedAt` not in `timestamp(_:)`'s form makes
    /// the line unreadable (it decides which line counts when manifests disagree).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        input = try container.decode(String.self, forKey: .input)
        path = try container.decode(String.self, forKey: .path)
        contentHash = try container.decodeIfPresent(String.self, forKey: .contentHash)
        optionsHash = try container.decode(String.self, forKey: .optionsHash)
        status = try container.decode(Status.self, forKey: .status)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        failure = try container.decodeIfPresent(Failure.self, forKey: .failure)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        outputHash = try container.decodeIfPresent(String.self, forKey: .outputHash)
        earlierOutputs = try Self.decodeFirst(WrittenOutput.self, Self.earlierOutputsLimit, of: container, forKey: .earlierOutputs)
        meanConfidence = try container.decodeIfPresent(Int.self, forKey: .meanConfidence)
        hasText = try container.decodeIfPresent(Bool.self, forKey: .hasText)
        coverage = try container.decodeIfPresent(Coverage.self, forKey: .coverage)
        warnings = try Self.decodeFirst(String.self, Self.listLimit, of: container, forKey: .warnings)
        messages = try Self.decodeFirst(String.self, Self.listLimit, of: container, forKey: .messages)
        timings = try container.decodeIfPresent(Timings.self, forKey: .timings)
        pages = try container.decodeIfPresent(Int.self, forKey: .pages)
        failedPages = try Self.decodeFirst(Int.self, Self.listLimit, of: container, forKey: .failedPages)
        finishedAt = try container.decode(String.self, forKey: .finishedAt)
        guard Self.isTimestamp(finishedAt) else {
            throw DecodingError.dataCorruptedError(
                forKey: .finishedAt, in: container, debugDescription: "not a time in the form 2026-12-01T12:34:56Z")
        }
    }

    /// The first `limit` elements of the list at `key` (none when it is absent or null); the
    /// rest are not decoded.
    private static func decodeFirst<Element: Decodable>(
        _ type: Element.Type, _ limit: Int, of container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys
    ) throws -> [Element] {
        guard try container.contains(key) && !container.decodeNil(forKey: key) else { return [] }
        var list = try container.nestedUnkeyedContainer(forKey: key)
        var elements: [Element] = []
        while !list.isAtEnd, elements.count < limit {
            elements.append(try list.decode(Element.self))
        }
        return elements
    }

    /// Whether `text` is in `timestamp(_:)`'s form, `2026-12-01T12:34:56Z` (so that comparing
    /// two as text compares the times).
    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 else { return false }
        for (index, byte) in bytes.enumerated() {
            let expected: UInt8? =
                switch index {
                case 4, 7: UInt8(ascii: "-")
                case 10: UInt8(ascii: "T")
                case 13, 16: UInt8(ascii: ":")
                case 19: UInt8(ascii: "Z")
                default: nil
                }
            if let expected {
                guard byte == expected else { return false }
            } else {
                guard (0x30...0x39).contains(byte) else { return false }
            }
        }
        return true
    }

    /// `error` without the path it starts with, cut to `quotedReasonLimit` characters, for
    /// quoting in a message that names the input itself; the status when there is no error.
    /// The text comes from a file anyone could have written: it is never shown whole.
    public var recordedReason: String {
        let prefix = path + ": "
        let reason = error.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 } ?? status.rawValue
        return OneLine.excerpt(reason, limit: Self.quotedReasonLimit)
    }

    /// Writes every key, `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(input, forKey: .input)
        try container.encode(path, forKey: .path)
        try container.encode(contentHash, forKey: .contentHash)
        try container.encode(optionsHash, forKey: .optionsHash)
        try container.encode(status, forKey: .status)
        try container.encode(error, forKey: .error)
        try container.encode(failure, forKey: .failure)
        try container.encode(output, forKey: .output)
        try container.encode(outputHash, forKey: .outputHash)
        try container.encode(earlierOutputs, forKey: .earlierOutputs)
        try container.encode(meanConfidence, forKey: .meanConfidence)
        try container.encode(hasText, forKey: .hasText)
        try container.encode(coverage, forKey: .coverage)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(messages, forKey: .messages)
        try container.encode(timings, forKey: .timings)
        try container.encode(pages, forKey: .pages)
        try container.encode(failedPages, forKey: .failedPages)
        try container.encode(finishedAt, forKey: .finishedAt)
    }

    /// Every output this entry knows snap-poem wrote for the input: `output` when it was
    /// written (it has an `outputHash`), then `earlierOutputs`.
    public var writtenOutputs: [WrittenOutput] {
        var all = earlierOutputs
        if let output, let outputHash { all.insert(WrittenOutput(output: output, outputHash: outputHash), at: 0) }
        return all
    }

    /// Carries over what `earlier` (the input's previous entries) knew about outputs snap-poem
    /// wrote for the input into `earlierOutputs`, leaving out the one this entry wrote (it
    /// replaced it); so that a manifest that keeps one line per input still recognises every
    /// output of its own.
    public mutating func remember(_ earlier: [WrittenOutput]) {
        var kept: [WrittenOutput] = []
        var seen: Set<ExactName> = []
        if let output, outputHash != nil { seen.insert(ExactName(output)) }
        for record in earlierOutputs + earlier where kept.count < Self.earlierOutputsLimit {
            if seen.insert(ExactName(record.output)).inserted { kept.append(record) }
        }
        earlierOutputs = kept
    }

    /// The line as written to the manifest: compact JSON with keys in alphabetical order
    /// (as in the JSON export), and a newline.
    public var line: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers, booleans and nulls only: encoding cannot fail.
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            preconditionFailure("encoding a ManifestEntry failed: \(error)")
        }
    }

    /// `finishedAt`'s form: ISO 8601 in UTC to the second, `2026-12-01T12:34:56Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
