/// Whether the manifests of an output folder (`ManifestSet`) cover a batch's inputs exactly
/// once: done, the output in place, the input unchanged since it was read. What
/// `--check-manifests` reports; it reads no image, only each input's bytes for its hash.
///
/// A page whose coverage check left text unread is done (it counts as covered) but is found
/// as one to look at, so that a person can compare the poem with the image.
public struct ManifestAudit: Sendable {
    /// What was found about one input, in the inputs' order.
    public enum Finding: Sendable, Equatable {
        /// No manifest mentions it.
        case missing(BatchInput)
        /// More than one manifest has it (the shards were run with different counts).
        case duplicated(BatchInput, files: [String])
        /// Its current line says it failed, for `reason` (the error without its path).
        case failed(BatchInput, reason: String)
        /// It is done, but its output file is gone.
        case outputMissing(BatchInput, output: String)
        /// Its bytes are not those that were read.
        case changed(BatchInput)
        /// Done, but the coverage check left text unread.
        case toLookAt(BatchInput, ManifestEntry.Coverage)
    }

    /// The findings, in the inputs' order.
    public var findings: [Finding] = []
    /// Inputs covered once, done, output present, unchanged (those to look at included).
    public var covered = 0
    /// Findings by kind.
    public var missing = 0, duplicated = 0, failed = 0, changed = 0, toLookAt = 0
    /// Inputs some manifest mentions that are not among those given.
    public var strangers = 0
    /// How many inputs were audited.
    public let total: Int

    /// Audits `inputs` against `manifests`, the outputs in `folder`.
    public init(inputs: [BatchInput], manifests: ManifestSet, folder: OutputFolder) {
        total = inputs.count
        var named: Set<ExactName> = []
        for input in inputs {
            named.insert(ExactName(input.relativePath))
            guard let record = manifests.record(for: input.relativePath) else {
                findings.append(.missing(input))
                missing += 1
                continue
            }
            let latest = record.entry
            if record.files.count > 1 {
                findings.append(.duplicated(input, files: record.files))
                duplicated += 1
                continue
            }
            guard latest.status.isDone else {
                findings.append(.failed(input, reason: latest.recordedReason))
                failed += 1
                continue
            }
            if let output = latest.output, (try? folder.hasFile(at: output)) != true {
                findings.append(.outputMissing(input, output: output))
                missing += 1
                continue
            }
            if let recorded = latest.contentHash, let current = (try? input.readContents()).map(ContentHash.of), current != recorded {
                findings.append(.changed(input))
                changed += 1
                continue
            }
            covered += 1
            if let coverage = latest.coverage, !coverage.complete {
                findings.append(.toLookAt(input, coverage))
                toLookAt += 1
            }
        }
        strangers = manifests.exactInputs.subtracting(named).count
    }

    /// Whether every input is covered.
    public var isComplete: Bool { covered == total }
}
