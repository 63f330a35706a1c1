import Foundation

/// Takes each image's outcome from whoever read it (`BatchReader`) and delivers it, the one
/// place where the results of a run, a batch or a single image, become files and manifest
/// lines:
///
/// - at once, as each image finishes (so that a run killed later keeps it): the images
///   asked for beside the document (`--annotate`, `--save-preprocessed`), then the document
///   (into the output folder, named by its `OutputLayout`, or into the one output file),
///   atomically; then, with an output folder, the manifest line. A write that fails fails
///   the image (`failed(.output)`); a manifest line that cannot be appended fails it too,
///   and its output just written is removed again, so that no output is left that no line
///   accounts for and a rerun reads it afresh;
/// - in input order, whatever order the images finish in: a `Delivery` for each, with what
///   to tell a person and the document when it goes to the front end (standard output, the
///   clipboard, one JSON Lines file).
///
/// Writing blocks (files flushed with `fsync`, lines appended), so the actor runs on a
/// serial Dispatch queue of its own rather than on Swift's cooperative pool.
public actor OutcomeDelivery {
    private let executor = QueueExecutor(label: "snap-poem.outcome-delivery")
    /// The actor's executor: a Dispatch queue of its own.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Where documents go.
    public enum Destination: Sendable {
        /// One file per image in the folder, named by the layout, and a line per image in
        /// the manifest.
        case folder(OutputFolder, OutputLayout, ManifestWriter)
        /// The one output file of a single image (`--output FILE`).
        case file(String)
        /// Handed over in each `Delivery`, for the front end to place.
        case handedOver
    }

    /// How outputs are written.
    public struct Settings: Sendable {
        /// Where documents go.
        public var destination: Destination
        /// Where the images made beside the document go.
        public var imagePaths: [ExportRequest.Image: String] = [:]
        /// Whether an existing output file and image files may be replaced (`--force`).
        public var overwrite = false
        /// In the output folder, the jobs (by index) whose existing output may be replaced.
        public var overwrites: Set<Int> = []
        /// The run's inputs, which no output may replace.
        public var protected: ProtectedFiles = []
        /// The options hash written on each manifest line.
        public var optionsHash = ""
        /// In the output folder, the outputs written for each job (by index) by earlier runs
        /// (`ResumePlan.earlierOutputs`), which its manifest line carries on.
        public var earlierOutputs: [Int: [ManifestEntry.WrittenOutput]] = [:]
        /// Where temporary files are registered while they are written.
        public var unfinished: UnfinishedFiles?

        /// Creates settings for `destination`.
        public init(destination: Destination) {
            self.destination = destination
        }
    }

    /// One image, delivered.
    public struct Delivery: Sendable {
        /// The image.
        public var job: ImageJob
        /// How it ended, the writing of its outputs included.
        public var outcome: ImageOutcome
        /// What to tell a person, in order: what the process reading it printed (at most
        /// `printedLinesShown` lines, as warnings), its own diagnostics, then the delivery's.
        public var diagnostics: [Diagnostic]
        /// Its manifest line, with an output folder.
        public var entry: ManifestEntry?
        /// Where its document was written, as messages show it.
        public var writtenTo: String?
        /// Its document, for `.handedOver`.
        public var document: Data?
    }

    /// What was delivered, counted.
    public struct Counts: Sendable, Equatable {
        /// Images read, whole or cut short by the time limit, and their outputs written.
        public var written = 0
        /// Of `written`, those the time limit cut short.
        public var partial = 0
        /// Images failed, reading or writing.
        public var failed = 0
        /// Images interrupted while they were read.
        public var cancelled = 0
        /// Every image that reached an outcome.
        public var finished: Int { written + failed + cancelled }
    }

    /// The most lines of what a process printed that are shown for one image (the manifest
    /// keeps them all).
    public static let printedLinesShown = 8

    private let settings: Settings
    private let deliver: @Sendable (Delivery) -> Void
    private let positions: [Int: Int]
    private var waiting: [Int: Delivery] = [:]
    private var nextPosition = 0
    private var manifestFailed = false
    /// What was delivered so far.
    public private(set) var counts = Counts()

    /// A delivery for `jobs` (in input order), handing each `Delivery` to `deliver`.
    public init(jobs: [ImageJob], settings: Settings, deliver: @escaping @Sendable (Delivery) -> Void) {
        self.settings = settings
        self.deliver = deliver
        self.positions = Dictionary(jobs.enumerated().map { ($0.element.index, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// Takes one image's outcome: writes its outputs and manifest line now, and delivers it
    /// (and whatever it was holding back) once every image before it was delivered.
    public func receive(_ job: ImageJob, _ outcome: ImageOutcome) {
        var delivery = write(job, outcome)
        switch delivery.outcome.status {
        case .ok: counts.written += 1
        case .timedOut:
            counts.written += 1
            counts.partial += 1
        case .failed: counts.failed += 1
        case .cancelled: counts.cancelled += 1
        }
        delivery.diagnostics = Self.printedWarnings(outcome.printed, job: job) + delivery.outcome.diagnostics
        waiting[positions[job.index] ?? nextPosition] = delivery
        while let ready = waiting.removeValue(forKey: nextPosition) {
            nextPosition += 1
            deliver(ready)
        }
    }

    /// Delivers whatever still waits, in order (after a cancellation, some images never
    /// come), and returns what was delivered, counted.
    public func finish() -> Counts {
        for position in waiting.keys.sorted() {
            if let ready = waiting.removeValue(forKey: position) { deliver(ready) }
        }
        return counts
    }

    /// Writes what `outcome` holds where it goes.
    private func write(_ job: ImageJob, _ outcome: ImageOutcome) -> Delivery {
        var outcome = outcome
        var delivery = Delivery(job: job, outcome: outcome, diagnostics: [])
        func failWriting(_ error: SnapPoemError) {
            outcome.status = .failed(.output)
            outcome.diagnostics.append(Diagnostic(error))
        }
        if outcome.status == .ok || outcome.status == .timedOut {
            for image in ExportRequest.Image.allCases {
                guard let bytes = outcome.images[image], let path = settings.imagePaths[image] else { continue }
                do throws(SnapPoemError) {
                    try OutputFile.write(
                        bytes, to: path, overwrite: settings.overwrite, protecting: settings.protected, unfinished: settings.unfinished)
                } catch {
                    failWriting(error)
                    break
                }
            }
        }
        var written: String?
        if outcome.status == .ok || outcome.status == .timedOut, let document = outcome.document {
            switch settings.destination {
            case .folder(let folder, let layout, _):
                let relative = layout.relativePath(for: job.input)
                do throws(SnapPoemError) {
                    try folder.write(
                        document, to: relative, overwrite: settings.overwrites.contains(job.index), protecting: settings.protected,
                        unfinished: settings.unfinished)
                    written = relative
                    delivery.writtenTo = folder.shownPath(relative)
                } catch {
                    failWriting(error)
                }
            case .file(let path):
                do throws(SnapPoemError) {
                    try OutputFile.write(
                        document, to: path, overwrite: settings.overwrite, protecting: settings.protected, unfinished: settings.unfinished)
                    delivery.writtenTo = path
                } catch {
                    failWriting(error)
                }
            case .handedOver:
                delivery.document = document
            }
        }
        if case .folder(let folder, _, let manifest) = settings.destination {
            var entry = ManifestEntry(job, outcome, optionsHash: settings.optionsHash)
            if let written, let document = outcome.document {
                entry.output = written
                entry.outputHash = ContentHash.of(document)
            }
            entry.remember(settings.earlierOutputs[job.index] ?? [])
            do throws(SnapPoemError) {
                try manifest.append(entry)
                delivery.entry = entry
            } catch {
                // No line accounts for the output: it goes, and the image counts as failed,
                // so that a rerun reads it again rather than find an output it did not write.
                if let written {
                    folder.remove(written)
                    delivery.writtenTo = nil
                }
                if !manifestFailed {
                    outcome.diagnostics.append(Diagnostic(error))
                }
                manifestFailed = true
                if outcome.status != .cancelled { outcome.status = .failed(.output) }
            }
        }
        delivery.outcome = outcome
        return delivery
    }

    /// What a process printed, as warnings naming the image.
    private static func printedWarnings(_ printed: [String], job: ImageJob) -> [Diagnostic] {
        var warnings = printed.prefix(printedLinesShown).map { Diagnostic(.warning, $0, subject: job.input.path) }
        if printed.count > printedLinesShown {
            warnings.append(
                Diagnostic(.warning, "… \(printed.count - printedLinesShown) more lines in the manifest", subject: job.input.path))
        }
        return warnings
    }
}
