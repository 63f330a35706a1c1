import Foundation

/// Which inputs of a batch with an output folder are read, decided for every input before
/// any image is read (`ResumeDecision`, against what the folder's manifests say,
/// `ManifestSet`), with what the run says and records about the others.
public struct ResumePlan: Sendable {
    /// The jobs to read, in input order.
    public var toRead: [ImageJob] = []
    /// The indices of jobs whose existing output may be replaced.
    public var overwrites: Set<Int> = []
    /// Lines to append to this run's manifest now: inputs skipped, outputs refused.
    public var entries: [ManifestEntry] = []
    /// What to tell a person, in input order.
    public var diagnostics: [Diagnostic] = []
    /// Inputs not read because they were done before.
    public var skipped = 0
    /// Inputs that failed before and are not read again, and outputs in the way.
    public var failed = 0
    /// For each job to read (by index), the outputs the manifests say snap-poem wrote for it
    /// before (`ManifestEntry.writtenOutputs`): its new line carries them on
    /// (`ManifestEntry.remember(_:)`), so that a later run still knows them as its own.
    public var earlierOutputs: [Int: [ManifestEntry.WrittenOutput]] = [:]

    /// Decides for each of `jobs`.
    ///
    /// - Parameters:
    ///   - jobs: the run's inputs, in order.
    ///   - folder: the output folder.
    ///   - layout: how outputs are named in it.
    ///   - manifests: what the folder's manifests say.
    ///   - optionsHash: this run's options hash (`ManifestEntry.optionsHash`).
    ///   - policy: `--force`, `--retry-failed`.
    ///   - protected: the run's inputs, which no output may replace.
    public init(
        jobs: [ImageJob], folder: OutputFolder, layout: OutputLayout, manifests: ManifestSet, optionsHash: String,
        policy: ResumeDecision.Policy, protecting protected: ProtectedFiles
    ) {
        for job in jobs {
            let relative = layout.relativePath(for: job.input)
            let shown = folder.shownPath(relative)
            let earlier = manifests.record(for: job.input.relativePath)?.entry
            let exists: Bool
            do throws(SnapPoemError) {
                if let tooLong = PathComponents.split(relative).first(where: { $0.utf8.count > TemporaryName.nameLimit }) {
                    throw .outputNotWritten(
                        path: shown,
                        reason: "file name too long: \(tooLong.utf8.count) bytes, over the \(TemporaryName.nameLimit) a file name may have")
                }
                exists = try folder.hasFile(at: relative)
                if exists, folder.holds(protected, at: relative) {
                    throw .outputNotWritten(path: shown, reason: "it is an input image; snap-poem never overwrites its inputs")
                }
            } catch {
                refuse(job, error, relative: relative, optionsHash: optionsHash, earlier: earlier)
                continue
            }
            let decision = ResumeDecision.decide(
                previous: earlier,
                contentHash: {
                    if let contents = job.contents { return ContentHash.of(contents) }
                    return (try? job.input.readContents()).map(ContentHash.of)
                },
                optionsHash: optionsHash, output: relative,
                outputHash: { exists ? Self.currentHash(of: relative, in: folder) : nil }, policy: policy)
            switch decision {
            case .read(let overwrite):
                toRead.append(job)
                if overwrite { overwrites.insert(job.index) }
                if let known = earlier?.writtenOutputs, !known.isEmpty { earlierOutputs[job.index] = known }
            case .skip(var entry):
                entry.status = .skipped
                entry.path = job.input.path
                entry.error = nil
                entry.timings = nil
                entry.finishedAt = ManifestEntry.timestamp(Date())
                entries.append(entry)
                skipped += 1
                if earlier?.status == .timedOut {
                    diagnostics.append(
                        Diagnostic(
                            .warning, "skipped; its text was cut short by the time limit before, and retrying failed inputs reads it again",
                            subject: job.input.path, category: .timeLimit, setting: .retryFailed))
                }
                diagnostics.append(Diagnostic(.remark, "skipped (done before) → \(shown)", subject: job.input.path))
            case .failedBefore(let entry):
                diagnostics.append(
                    Diagnostic(
                        .error, "\(entry.recordedReason); failed before, and not read again unless failed inputs are retried",
                        subject: job.input.path, category: .input, setting: .retryFailed))
                failed += 1
            case .outputInTheWay:
                refuse(
                    job, .outputNotWritten(path: shown, reason: OutputFile.existsReason), relative: relative, optionsHash: optionsHash,
                    earlier: earlier)
            }
        }
    }

    /// The largest file that can be an output snap-poem wrote: a text, Markdown, HTML
    /// (with its photo at most 1600 px), JSON, e-mail, hOCR, TSV or ALTO document of one
    /// poem is far smaller. A larger file in an output's place is someone else's, and is
    /// not read to be hashed.
    public static let largestOutputBytes = 64 << 20

    /// The content hash of the file at `relative`; for a file over `largestOutputBytes`, or
    /// one that is there but cannot be read (no permission, an I/O error), a value no
    /// output's hash equals: it is in the way, and its image is refused before it is read
    /// rather than read and then refused when its output is written. Nil when the file is
    /// gone by the time it is read.
    static func currentHash(of relative: String, in folder: OutputFolder) -> String? {
        do throws(SnapPoemError) {
            return ContentHash.of(try folder.read(relative, limit: largestOutputBytes))
        } catch {
            if case .fileTooLarge = error { return "over \(largestOutputBytes) bytes" }
            // Gone since it was seen (another process removed it): nothing is in the way.
            if case .fileNotFound = error { return nil }
            return "unreadable: \(error.description)"
        }
    }

    /// An output that cannot be written whatever the image holds: refused before reading.
    /// Its line still remembers the outputs written for the input before (`earlier`'s).
    private mutating func refuse(_ job: ImageJob, _ error: SnapPoemError, relative: String, optionsHash: String, earlier: ManifestEntry?) {
        diagnostics.append(Diagnostic(error))
        var entry = ManifestEntry(
            input: job.input.relativePath, path: job.input.path, contentHash: nil, optionsHash: optionsHash, status: .failed,
            error: error.description, failure: .output, output: relative)
        entry.remember(earlier?.writtenOutputs ?? [])
        entries.append(entry)
        failed += 1
    }
}
