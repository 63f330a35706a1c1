/// A setting outside the scan's own options (`ScanOption`) that an error or a diagnostic
/// names as the one that was wrong, or the one that would change the outcome, so that each
/// front end can name it its own way: the command line as its flag, the HTTP service as its
/// field, a program as the property. The library's messages say what is wrong and what to do
/// in words, never in a front end's spelling; `SnapPoemError.setting` and
/// `Diagnostic.setting` say which setting they mean. The raw value is the name
/// `SnapPoemError.invalidOption` gives.
public enum Setting: String, Sendable, Hashable, Codable, CaseIterable {
    /// The folder of Tesseract's models (`EngineConfiguration.tessdataDirectory`).
    case tessdata
    /// A FIND=REPLACE pair (`Replacement(parsing:)`).
    case replace
    /// The part of a batch given as K/N (`Shard(parsing:)`, `Shard(index:count:)`).
    case shard
    /// The part of a batch taken from a scheduler's environment
    /// (`Shard.fromEnvironment(_:count:)`).
    case shardFromEnvironment
    /// The number of shards given with a scheduler's shard: `count` of
    /// `Shard.fromEnvironment(_:count:)`.
    case shardCount
    /// A batch worker's memory limit (`WorkerConfiguration.memoryLimit`).
    case workerMemory
    /// Reading again the inputs a manifest records as failed or cut short
    /// (`ResumeDecision.Policy.retryFailed`).
    case retryFailed
    /// Replacing output files that are in the way (`ResumeDecision.Policy.force`, the
    /// `overwrite` of `OutputFile`).
    case overwrite
    /// Following symbolic links that lead out of a folder argument
    /// (`InputCollection`'s `followsLinksOutside`).
    case followLinks
    /// Which page of a multi-page file the images of an export show
    /// (`ExportRequest.imagesPage`).
    case annotationPage
}
