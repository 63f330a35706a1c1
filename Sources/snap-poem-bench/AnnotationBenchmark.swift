// snap-poem-bench annotate: what drawing the annotation costs beside reading the image.
//
//   snap-poem-bench annotate [--runs N] [IMAGE...]
//
// Each image (default: Lenore.png, the 4032×3024 phone photo and the photo tilted 5°) is
// scanned with Lenore → Alex, keeping its upright image; then, in the same run, the
// annotation is drawn at full size, encoded as PNG (what --annotate writes), and the
// side-by-side HTML page is made (drawn at 1600 px, JPEG, base64). N interleaved runs; the
// medians, and the annotation's cost as a share of the scan.
import Foundation
import SnapPoem

/// The entry point of `snap-poem-bench annotate`.
func annotation(images: [String], runs: Int) async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")
    let paths =
        images.isEmpty
        ? ["Lenore.png", "photo-phone-size.jpg", "photo-rotated-5deg.jpg"].map { root.appendingPathComponent($0).path } : images
    var configuration = ScanConfiguration(replacements: ["Lenore": "Alex"])
    configuration.keepsUprightImage = true
    let scanner = try await PoemScanner(configuration: configuration)
    print(
        "| image | size | scan ms | draw ms | PNG encode ms | PNG KB | side-by-side page ms | page KB | draw + PNG ÷ scan | page ÷ scan |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in paths {
        var scans: [Double] = [], draws: [Double] = [], encodes: [Double] = [], pages: [Double] = []
        var pngBytes = 0, pageBytes = 0, size = ""
        for _ in 0..<max(1, runs) {
            var start = ContinuousClock.now
            let poem = try await scanner.scan(fileAt: path)
            scans.append(milliseconds(ContinuousClock.now - start))
            size = "\(poem.preprocessingReport.inputWidth)×\(poem.preprocessingReport.inputHeight)"
            start = ContinuousClock.now
            let annotation = try poem.annotated()
            draws.append(milliseconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            pngBytes = try annotation.pngData().count
            encodes.append(milliseconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            pageBytes = try SideBySideHTMLExporter().export(poem).count
            pages.append(milliseconds(ContinuousClock.now - start))
        }
        let scan = median(scans)
        print(
            "| \((path as NSString).lastPathComponent) | \(size) | \(format(scan)) | \(format(median(draws))) | \(format(median(encodes))) | \(pngBytes / 1024) | \(format(median(pages))) | \(pageBytes / 1024) | "
                + String(format: "%.2f | %.2f |", (median(draws) + median(encodes)) / scan, median(pages) / scan))
    }
}
