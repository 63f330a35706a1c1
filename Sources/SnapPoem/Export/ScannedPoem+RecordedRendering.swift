/// What the hOCR, TSV and ALTO exporters share: fetching Tesseract's rendering from the scan.
extension ScannedPoem {
    /// The rendering `rendering` that the scan recorded, for exporting as `format`.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan was made without asking for it.
    func recordedRendering(_ rendering: PageRenderingFormat, for format: ExportFormat) throws(SnapPoemError) -> String {
        guard let text = page.renderings[rendering] else {
            throw .exportFailed(
                path: source, format: format.rawValue,
                reason:
                    "the scan did not record Tesseract's \(rendering.rawValue) rendering; add .\(rendering.rawValue) to RecognitionOptions.renderings before scanning"
            )
        }
        return text
    }
}
