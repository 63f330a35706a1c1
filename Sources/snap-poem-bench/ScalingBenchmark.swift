// snap-poem-bench scaling: does enlarging small print help Tesseract, and what does it cost?
//
//   snap-poem-bench scaling [--runs N] [IMAGE...]
//
// Each image (default: four clean samples with ground truth) is shrunk so that its
// x-height becomes 8, 10, …, 20 px (area averaging, as a low-resolution scan would be),
// then recognised twice side by side with one engine: at that size, and enlarged to the
// automatic mode's 24 px x-height. Reports the edits against the ground truth (deterministic)
// and the median recognition times of N interleaved runs, with their ratio. Both texts go
// through the same clean-up as the pipeline's (`OCRTextCleanup.standard`). SCALING_DETAIL=1
// lists each image's edits on standard error.
import Foundation
import SnapPoem

/// The entry point of `snap-poem-bench scaling`.
func scaling(images: [String], runs: Int) async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")
    let paths =
        images.isEmpty
        ? ["photo-clean.png", "chanson-d-automne.png", "Lenore.png", "photo-coloured.jpg"].map {
            root.appendingPathComponent($0).path
        } : images
    let recognizer = try await Recognizer()
    print(
        "| x-height (measured) | images | edits at that size | edits enlarged to 24 px | time at that size ms | time enlarged ms | enlarged ÷ kept |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for target in stride(from: 8.0, through: 20.0, by: 2.0) {
        var keptEdits = 0, enlargedEdits = 0, keptTimes: [Double] = [], enlargedTimes: [Double] = [], measured: [Double] = []
        for path in paths {
            let (image, _) = try ImageDecoder.decode(fileAt: path)
            let truth = try String(
                contentsOf: URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
            let gray = try ImagePreprocessor.grayscale(image)
            guard let drawn = ImageAnalysis(measuring: gray).xHeight else { continue }
            let small = try ImagePreprocessor.scaled(gray, by: target / drawn)
            guard let xHeight = ImageAnalysis(measuring: small).xHeight else { continue }
            measured.append(xHeight)
            let enlarged = try ImagePreprocessor.scaled(small, by: ScalingMode.targetXHeight / xHeight)
            var kept: [Double] = [], grown: [Double] = []
            var keptText = "", grownText = ""
            for _ in 0..<max(1, runs) {
                var start = ContinuousClock.now
                keptText = OCRTextCleanup.standard.clean(PoemLayout.text(of: try await recognizer.recognize(small)))
                kept.append(milliseconds(ContinuousClock.now - start))
                start = ContinuousClock.now
                grownText = OCRTextCleanup.standard.clean(PoemLayout.text(of: try await recognizer.recognize(enlarged)))
                grown.append(milliseconds(ContinuousClock.now - start))
            }
            keptEdits += editCount(keptText, truth: truth)
            enlargedEdits += editCount(grownText, truth: truth)
            if ProcessInfo.processInfo.environment["SCALING_DETAIL"] != nil {
                FileHandle.standardError.write(
                    Data(
                        "  \((path as NSString).lastPathComponent) \(Int(target)) px: \(editCount(keptText, truth: truth)) kept, \(editCount(grownText, truth: truth)) enlarged\n"
                            .utf8))
            }
            keptTimes.append(median(kept))
            enlargedTimes.append(median(grown))
        }
        let keptTotal = keptTimes.reduce(0, +), grownTotal = enlargedTimes.reduce(0, +)
        let range = "\(String(format: "%.1f", measured.min() ?? .nan))–\(String(format: "%.1f", measured.max() ?? .nan))"
        print(
            "| \(Int(target)) (\(range)) | \(measured.count) | \(keptEdits) | \(enlargedEdits) | \(format(keptTotal)) | \(format(grownTotal)) | \(String(format: "%.2f", grownTotal / max(1, keptTotal))) |"
        )
    }
}

/// The edit distance behind `characterErrorRate`, as a count.
private func editCount(_ recognized: String, truth: String) -> Int {
    let length = truth.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        .unicodeScalars.count
    return Int((characterErrorRate(recognized, truth: truth) * Double(length)).rounded())
}
