import Foundation

/// What a batch run does with one input of an output folder that may hold earlier work,
/// decided before any image is read: the fate of every output is known up front.
public enum ResumeDecision: Sendable, Equatable {
    /// Read it. `overwrite`: the output file exists and may be replaced (`--force`, or it is
    /// snap-poem's own earlier output, unchanged since, for an input or options that changed;
    /// any output the manifest remembers for the input counts, `earlierOutputs` included).
    case read(overwrite: Bool)
    /// Done before with the same content and options, and its output is in place: not read.
    case skip(ManifestEntry)
    /// Failed before with the same content and options because of the input itself: not
    /// read again unless asked (`--retry-failed`), and still counted as failed.
    case failedBefore(ManifestEntry)
    /// An output file is in the way that snap-poem did not write (or someone changed since),
    /// and `--force` was not given: refused without reading the image.
    case outputInTheWay

    /// How a run treats earlier work.
    public struct Policy: Sendable, Equatable {
        /// `--force`: read everything, replace outputs.
        public var force: Bool
        /// `--retry-failed`: read inputs that failed (or timed out) before.
        public var retryFailed: Bool

        /// Creates a policy.
        public init(force: Bool = false, retryFailed: Bool = false) {
            self.force = force
            self.retryFailed = retryFailed
        }
    }

    /// Decides for one input.
    ///
    /// - Parameters:
    ///   - previous: the input's latest manifest entry in the output folder, if any (its
    ///     `earlierOutputs` included).
    ///   - contentHash: a closure giving the input's current content hash (nil if it cannot
    ///     be read); called only when the decision depends on it.
    ///   - optionsHash: this run's options hash.
    ///   - output: the output's path relative to the output folder.
    ///   - outputHash: the output file's current content hash, nil when there is no file.
    ///   - policy: what the command asked for (`--force`, `--retry-failed`).
    public static func decide(
        previous: ManifestEntry?,
        contentHash: () -> String?,
        optionsHash: String,
        output: String,
        outputHash: () -> String?,
        policy: Policy
    ) -> ResumeDecision {
        if policy.force { return .read(overwrite: true) }
        let existing = outputHash()
        if let previous, previous.optionsHash == optionsHash, let hash = previous.contentHash, hash == contentHash() {
            switch previous.status {
            case .ok, .skipped:
                // Pages that failed (a multi-page TIFF) are read again with --retry-failed.
                if previous.output == output, existing != nil, previous.failedPages.isEmpty || !policy.retryFailed {
                    return .skip(previous)
                }
            case .timedOut:
                if previous.output == output, existing != nil, !policy.retryFailed { return .skip(previous) }
            case .failed:
                if previous.failure == .input, !policy.retryFailed { return .failedBefore(previous) }
            case .cancelled:
                break
            }
        }
        guard let existing else { return .read(overwrite: false) }
        // The output of the latest run, or of an earlier one under other options
        // (`earlierOutputs`): snap-poem's own as long as it is as it was written.
        let isOwnUntouched = previous?.writtenOutputs.contains(ManifestEntry.WrittenOutput(output: output, outputHash: existing)) == true
        return isOwnUntouched ? .read(overwrite: true) : .outputInTheWay
    }
}
