import SnapPoem

extension CommandOptions {
    /// Binds and checks `--annotate FILE.png` and `--side-by-side`, and has the scan keep the
    /// upright image they draw on. Runs after inputs, `--output`, `--save-preprocessed` and
    /// the export options are bound.
    mutating func bindAnnotation(_ parsed: ParsedArguments) throws(UsageError) {
        if let path = parsed.value("annotate") {
            guard path != "-", !inputs.contains(path), path != output, path != savePreprocessed else {
                throw UsageError(
                    message:
                        "'--annotate \(path)' must name a new file, not standard output, an input, the --output or the --save-preprocessed file."
                )
            }
            guard path.lowercased().hasSuffix(".png") else {
                throw UsageError(message: "'--annotate \(path)' writes a PNG image; name the file FILE.png.")
            }
            annotate = path
            export.images.insert(.annotated)
        }
        if parsed.has("side-by-side") {
            try applyExport([.sideBySide: ""])
        }
        if let text = parsed.value("annotate-page") {
            guard let page = Int(text), (1...100_000).contains(page) else {
                throw UsageError(message: "Invalid value '\(text)' for '--annotate-page <N>': expected a page number from 1.")
            }
            guard annotate != nil || savePreprocessed != nil || export.sideBySide else {
                throw UsageError(
                    message: "'--annotate-page' chooses the page of --annotate, --save-preprocessed or --side-by-side; give one of them.")
            }
            export.imagesPage = page
        }
    }
}
