import SnapPoem

extension Setting {
    /// The command line's spelling of the setting, as its messages name it: `--worker-memory`.
    /// The library's messages say what to do in words; the command adds the flag.
    var flag: String {
        switch self {
        case .tessdata: "--tessdata DIR"
        case .replace: "--replace"
        case .shard: "--shard"
        case .shardFromEnvironment: "--shard auto"
        case .shardCount: "--shard auto/N"
        case .workerMemory: "--worker-memory"
        case .retryFailed: "--retry-failed"
        case .overwrite: "--force"
        case .followLinks: "--follow-links"
        case .annotationPage: "--annotate-page"
        }
    }
}

extension SnapPoemError {
    /// The error as the command line says it, one line: an `invalidOption` about a `Setting`
    /// names the flag (`--replace: 'x' has no '='; …`), the others are their `description`.
    /// `flag` spells the setting when the command knows it better (`--shard auto/8`).
    func commandLineDescription(flag: String? = nil) -> String {
        guard case .invalidOption(_, let reason) = self, let setting else { return description }
        return OneLine.escaping("\(flag ?? setting.flag): \(reason)")
    }
}
