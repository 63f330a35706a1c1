import Foundation
import Testing

@testable import SnapPoem

/// Issue 21 §2: an enlarged page's lines are found on a copy at about the scale it was
/// photographed at (`PreprocessingReport.lineFindingReduction`), and read in the enlarged image.
@Suite("Layout analysis of an enlarged page")
struct LayoutReductionTests {
    /// A report of a page whose print measured `xHeight` px and was scaled by `scale`.
    static func report(xHeight: Double?, scale: Double) -> PreprocessingReport {
        var report = PreprocessingReport(inputWidth: 1000, inputHeight: 1400, filter: .flatten)
        report.analysis = ImageAnalysis(isLightOnDark: false, polarity: 0, xHeight: xHeight, letterCount: 100)
        report.scaleFactor = scale
        return report
    }

    @Test("Back to the photographed scale, never under an x-height of 16 px, and only for an enlarged page")
    func rule() {
        // A 300-dpi page at x-height 16.9 enlarged ×1.42: analysed at its own size.
        #expect(Self.report(xHeight: 16.9, scale: 1.42).lineFindingReduction == 1.42)
        // Print of 8 px enlarged ×3 to 24 px: analysed at 16 px, not at 8.
        #expect(abs(Self.report(xHeight: 8, scale: 3).lineFindingReduction - 1.5) < 1e-9)
        // Print enlarged to less than 16 px: analysed as it is.
        #expect(Self.report(xHeight: 5, scale: 3).lineFindingReduction == 1)
        // Kept, shrunk, or of no measured x-height: analysed as it is.
        #expect(Self.report(xHeight: 30, scale: 1).lineFindingReduction == 1)
        #expect(Self.report(xHeight: 40, scale: 0.5).lineFindingReduction == 1)
        #expect(Self.report(xHeight: nil, scale: 2).lineFindingReduction == 1)
    }

    @Test("The reduced layout gives the lines of the full one, read alike", arguments: ["photo-low-resolution.png", "columns.png"])
    func sameReading(sample: String) async throws {
        var configuration = ScanConfiguration()
        configuration.keepsPreprocessedImage = true
        let scanner = try await PoemScanner(configuration: configuration)
        let poem = try await scanner.scan(fileAt: Fixtures.sample(sample))
        let reduction = try #require(poem.reading?.layoutReduction, "\(sample) is enlarged, so its layout is reduced")
        #expect(reduction > 1.3)
        let prepared = try #require(poem.preprocessedImage)
        // The same prepared image read twice: its layout analysed on the reduced copy, and at full size.
        let exact = poem.preprocessingReport.lineFindingReduction
        let reading = PageReading(engines: scanner.engines)
        let options = configuration.recognition
        let reduced = try #require(
            try await reading.read(prepared, options: options, deadline: nil, name: sample, progress: nil, layoutReduction: exact))
        let full = try #require(
            try await reading.read(prepared, options: options, deadline: nil, name: sample, progress: nil, layoutReduction: 1))
        #expect(reduced.report.layoutReduction == reduction)
        #expect(full.report.layoutReduction == nil)
        #expect(full.report.lineCount == reduced.report.lineCount)
        // The same lines, read alike. (Paragraphs, which layout analysis also finds, may
        // break differently: on columns.png the full-size layout starts a stanza inside one.)
        #expect(full.page.lines.map(\.text) == reduced.page.lines.map(\.text), "\(sample)")
        // The boxes agree to within the sampling step.
        let tolerance = Int(exact.rounded(.up)) + 1
        let pairs = zip(reduced.page.lines.map(\.boundingBox), full.page.lines.map(\.boundingBox))
        for (small, whole) in pairs {
            #expect(abs(small.top - whole.top) <= tolerance && abs(small.bottom - whole.bottom) <= tolerance, "\(small) \(whole)")
        }
        #expect(characterErrorRate(poem.text, truth: try Fixtures.groundTruth(for: sample)) <= 0.02)
    }
}
