import Foundation
import SnapPoem

/// How the command line asks a batch to run: resume, the workers' limits, the shape of
/// outputs, progress and verbosity.
struct BatchOptions: Sendable, Equatable {
    /// How much is said on standard error.
    enum Verbosity: Sendable, Equatable {
        /// `-q`: errors only.
        case quiet
        case normal
        /// `-v`: also a line per image and worker restarts.
        case verbose
    }

    /// `--progress`.
    enum Progress: String, Sendable, Equatable, CaseIterable {
        /// A bar when standard error is a terminal.
        case auto
        /// JSON Lines events on standard error.
        case json
        /// Nothing.
        case none
    }

    /// The per-image limit when `--per-image-limit` is not given.
    static let defaultImageTimeLimit: Duration = .seconds(120)
    /// The workers' memory limit when `--worker-memory` is not given.
    static let defaultWorkerMemory = 4096 << 20
    /// The least `--worker-memory`, in megabytes: a worker with its engine (`eng+fra`) needs
    /// about 450 MB of address space (release build; 476 MB debug) to read a 12-megapixel
    /// phone photo (`photo-phone-size.jpg`) and `Lenore.png`, measured; below that it starts,
    /// then no photo can be read. 512 leaves a margin.
    static let minimumWorkerMegabytes = 512

    /// `--keep-extension`: `stanza.jpg` → `stanza.jpg.txt`.
    var keepsExtension = false
    /// `--follow-links`: symbolic links that lead out of a folder argument are followed too.
    var followsLinksOutside = false
    /// `--retry-failed`.
    var retriesFailed = false
    /// `--per-image-limit`, or the default (at least a minute more than `--timeout`).
    var imageTimeLimit: Duration = defaultImageTimeLimit
    /// `--worker-memory` in bytes; nil for no limit.
    var workerMemory: Int? = defaultWorkerMemory
    /// `--progress`.
    var progress: Progress = .auto
    /// `-q` / `-v`.
    var verbosity: Verbosity = .normal
    /// `--check-manifests`.
    var checksManifests = false
    /// `--shard auto` (count nil) or `--shard auto/N`: the shard comes from the scheduler's
    /// environment when the batch runs.
    var automaticShard: AutomaticShard?
    /// The digest of everything that shapes an image's output (see `optionsHash(_:)`).
    var optionsHash = ""

    /// `--shard auto[/N]`.
    struct AutomaticShard: Sendable, Equatable {
        /// N, when given.
        var count: Int?
    }
}

extension CommandOptions {
    /// Binds `--keep-extension`, `--follow-links`, `--retry-failed`, `--per-image-limit`, `--worker-memory`,
    /// `--progress`, `-q`, `-v`, `--check-manifests` and `--shard auto`, and computes the
    /// options hash. Runs last.
    mutating func bindBatch(_ parsed: ParsedArguments) throws(UsageError) {
        var batch = BatchOptions()
        batch.keepsExtension = parsed.has("keep-extension")
        batch.followsLinksOutside = parsed.has("follow-links")
        batch.retriesFailed = parsed.has("retry-failed")
        if parsed.has("force"), batch.retriesFailed {
            throw UsageError(message: "'--force' reads every input again; '--retry-failed' adds nothing to it.")
        }
        if let limit = scan.recognition.timeLimit, limit + .seconds(60) > batch.imageTimeLimit {
            batch.imageTimeLimit = limit + .seconds(60)
        }
        if let text = parsed.value("per-image-limit") {
            guard let limit = Duration(seconds: text, atMost: 604_800) else {
                throw UsageError(
                    message:
                        "Invalid value '\(text)' for '--per-image-limit <SECONDS>': expected a number of seconds greater than 0, at most 604800 (a week)."
                )
            }
            batch.imageTimeLimit = limit
            if let limit = scan.recognition.timeLimit, limit >= batch.imageTimeLimit {
                throw UsageError(
                    message:
                        "'--per-image-limit \(text)' must be longer than '--timeout', which lets recognition stop by itself with partial text."
                )
            }
        }
        if let text = parsed.value("worker-memory") {
            if text == "none" {
                batch.workerMemory = nil
            } else {
                let least = BatchOptions.minimumWorkerMegabytes
                guard let megabytes = Int(text), (least...1_048_576).contains(megabytes) else {
                    throw UsageError(
                        message:
                            "Invalid value '\(text)' for '--worker-memory <MB|none>': expected megabytes from \(least) (a worker needs about 450 MB to read a phone photo), or none."
                    )
                }
                batch.workerMemory = megabytes << 20
            }
        }
        if let text = parsed.value("progress") {
            guard let progress = BatchOptions.Progress(rawValue: text) else {
                let names = BatchOptions.Progress.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(message: "Invalid value '\(text)' for '--progress <WHEN>': expected one of \(names).")
            }
            batch.progress = progress
        }
        switch (parsed.has("quiet"), parsed.has("verbose")) {
        case (true, true): throw UsageError(message: "'--quiet' and '--verbose' contradict each other; choose one.")
        case (true, false): batch.verbosity = .quiet
        case (false, true): batch.verbosity = .verbose
        case (false, false): break
        }
        batch.checksManifests = parsed.has("check-manifests")
        if batch.checksManifests, outputDirectory == nil {
            throw UsageError(message: "'--check-manifests' needs '--output-dir DIR', the folder whose manifests it checks.")
        }
        if batch.checksManifests, parsed.has("shard") {
            throw UsageError(message: "'--check-manifests' checks the whole batch against every shard's manifest; omit '--shard'.")
        }
        if batch.retriesFailed, outputDirectory == nil {
            throw UsageError(message: "'--retry-failed' reads the manifest in '--output-dir DIR'; add it.")
        }
        if let text = parsed.value("shard"), text.hasPrefix("auto") {
            if text == "auto" {
                batch.automaticShard = BatchOptions.AutomaticShard(count: nil)
            } else if text.hasPrefix("auto/"), let count = Int(text.dropFirst("auto/".count)), count >= 1 {
                batch.automaticShard = BatchOptions.AutomaticShard(count: count)
            } else {
                throw UsageError(message: "Invalid value '\(text)' for '--shard <K/N>': expected K/N, auto or auto/N.")
            }
        }
        batch.optionsHash = Self.optionsHash(parsed, replacementsDigests: replacementsDigests)
        self.batch = batch
    }

    /// Options that change where and how a batch runs, not what an image's output holds.
    static let optionsOutsideHash: Set<String> = [
        "jobs", "shard", "force", "retry-failed", "per-image-limit", "worker-memory", "progress", "quiet", "verbose",
        "check-manifests", "output-dir", "help", "version", "list-langs", "copy", "follow-links",
    ]

    /// A digest of everything that shapes one image's output: every option given except
    /// `optionsOutsideHash`, by name in sorted order with its values in the order given; the
    /// digest of each `--replacements` file's content (not its name), of the very bytes its
    /// pairs were read from; the versions of snap-poem, Tesseract and Leptonica. A rerun with
    /// the same digest would write the same output.
    static func optionsHash(_ parsed: ParsedArguments, replacementsDigests: [String]) -> String {
        var lines = ["snap-poem \(Versions.snapPoem)", "tesseract \(Versions.tesseract)", "leptonica \(Versions.leptonica)"]
        for name in parsed.values.keys.sorted() where !optionsOutsideHash.contains(name) {
            for (position, value) in (parsed.values[name] ?? []).enumerated() {
                if name == "replacements" {
                    lines.append("--replacements \(replacementsDigests[position])")
                } else {
                    lines.append("--\(name) \(value)")
                }
            }
        }
        return ContentHash.of(lines.joined(separator: "\n"))
    }
}
