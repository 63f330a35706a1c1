// snap-poem-bench coverage: what the text coverage check costs and what it finds.
//
//   snap-poem-bench coverage [--runs N] [--no-deskew] [IMAGE...]
//
// Each image is scanned by one scanner with the check on; the check's own time
// (`StageTimings.coverageCheck`: finding the text-like ink, and any re-read) is compared with
// the recognition time of the same scan, as medians of N runs. Without images it runs the
// sample set of the quality benchmark. --no-deskew reads the pages as snap-poem did when the
// skew was measured over all the ink and a sheet's edges made it 0°: tilted, so that
// Tesseract skips lines and the check has something to read again.
import Foundation
import SnapPoem

/// The entry point of `snap-poem-bench coverage`.
func coverage(images: [String], runs: Int, deskews: Bool = true) async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let paths =
        images.isEmpty
        ? (qualitySamples.map(\.file) + ["blank.png", "illustration.png", "columns.png"]).map {
            root.appendingPathComponent("SampleImages").appendingPathComponent($0).path
        } : images
    let scanner = try await PoemScanner(configuration: ScanConfiguration(preprocessing: PreprocessingOptions(deskews: deskews)))
    print(
        "| image | text shapes | covered before | covered after | regions re-read | lines added | unread regions | recognise ms | check ms | check ÷ recognise |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    var totalRecognize = 0.0, totalCheck = 0.0
    for path in paths where FileManager.default.fileExists(atPath: path) {
        var recognize: [Double] = [], check: [Double] = []
        var last: ScannedPoem?
        for _ in 0..<max(1, runs) {
            let poem = try await scanner.scan(fileAt: path)
            recognize.append(milliseconds(poem.timings.recognize))
            check.append(milliseconds(poem.timings.coverageCheck))
            last = poem
        }
        guard let poem = last else { continue }
        let found = poem.coverage
        totalRecognize += median(recognize)
        totalCheck += median(check)
        print(
            "| \((path as NSString).lastPathComponent) | \(found?.textShapeCount ?? 0) | \(share(found?.coveredBeforeReread)) | \(share(found?.coveredAfterReread)) | \(found?.rereadRegions.count ?? 0) | \(found?.recoveredLineCount ?? 0) | \(found?.unreadRegions.count ?? 0) | \(format(median(recognize))) | \(format(median(check))) | \(String(format: "%.1f %%", 100 * median(check) / max(1, median(recognize)))) |"
        )
    }
    print("")
    print(
        "All images: the check took \(String(format: "%.1f %%", 100 * totalCheck / max(1, totalRecognize))) of recognition time (sum of medians, re-reads included)."
    )
}

private func share(_ value: Double?) -> String {
    value.map { String(format: "%.1f %%", 100 * $0) } ?? "–"
}
