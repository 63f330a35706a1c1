import CTesseract
import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// Issue 45: a textured ground (a screen's pixel grid, a dim photo's grain) that Tesseract's
/// global threshold would cut in two is made paper again (`ImagePreprocessor.groundSplit`,
/// `liftingWhitePoint`), and only where that settles the threshold.
@Suite("The white point lifted where a global threshold would cut the ground in two")
struct GroundSplitTests {
    /// 256 level counts (of a million pixels) with `share` spread evenly over each range.
    private static func histogram(_ ranges: [(ClosedRange<Int>, Double)]) -> [Double] {
        var counts = [Double](repeating: 0, count: 256)
        for (levels, share) in ranges {
            for level in levels { counts[level] += share * 1_000_000 / Double(levels.count) }
        }
        return counts
    }

    @Test("A split between ink and paper is left alone; so is a page with no ink")
    func inkAndPaper() {
        #expect(ImagePreprocessor.groundSplit(Self.histogram([(30...50, 0.05), (190...210, 0.95)])) == nil)
        // A ground spread wide, under a lighter surround, with the ink apart: still a valley.
        #expect(ImagePreprocessor.groundSplit(Self.histogram([(30...50, 0.03), (150...190, 0.55), (200...200, 0.42)])) == nil)
        #expect(ImagePreprocessor.groundSplit(Self.histogram([(200...200, 1)])) == nil)
        #expect(ImagePreprocessor.groundSplit([Double](repeating: 0, count: 256)) == nil)
    }

    @Test("A two-tone pixel grid under a lighter surround is found, and lifting its white point settles the split")
    func screenGrid() throws {
        let grid = Self.histogram([(30...50, 0.03), (140...160, 0.25), (185...205, 0.72)])
        let level = try #require(ImagePreprocessor.groundSplit(grid))
        #expect((140...185).contains(level), "\(level)")
        #expect(ImagePreprocessor.liftSettlesSplit(grid, at: level))
        #expect(ImagePreprocessor.liftedLevel(level, whitePoint: level) == 255)
        #expect(ImagePreprocessor.liftedLevel(0, whitePoint: level) == 0)
        #expect(ImagePreprocessor.liftedLevel(40, whitePoint: 160) == 64)
    }

    @Test("A dim page whose grain the lift would bring up to the split is left as it was")
    func grainNotSettled() throws {
        let grain = Self.histogram([(20...60, 0.08), (70...150, 0.5), (150...200, 0.42)])
        let level = try #require(ImagePreprocessor.groundSplit(grain))
        #expect(!ImagePreprocessor.liftSettlesSplit(grain, at: level))
    }

    /// `Lenore.png` in grey with its paper replaced by a diagonal grid, one pixel in three at
    /// 150 and the others at 195, as a screen's pixels photographed close up: a global
    /// threshold cuts that ground in two.
    private static func gridded() throws -> Data {
        try EditedSample.png("Lenore.png") { grey, width, height in
            for y in 0..<height {
                for x in 0..<width {
                    var value: UInt32 = 0
                    pixGetPixel(grey, x, y, &value)
                    if value > 128 { pixSetPixel(grey, x, y, (x + y) % 3 == 0 ? 150 : 195) }
                }
            }
        }
    }

    @Test("A poem on a pixel grid is read from its lifted page (Tesseract on the page as it is reads nothing)")
    func griddedPoemRead() async throws {
        let data = try Self.gridded()
        let (decoded, _) = try ImageDecoder.decode(data: data, name: "gridded.png")
        let prepared = try ImagePreprocessor.process(decoded, options: PreprocessingOptions())
        let level = try #require(prepared.report.liftedWhitePoint, "the grid's ground was not found")
        #expect((140...195).contains(level), "\(level)")
        // What Tesseract's own threshold sees now: ink, not half the ground.
        let histogram = try #require(prepared.image.pix.grayHistogram(sampling: 2))
        #expect(ImagePreprocessor.groundSplit(histogram) == nil)

        let poem = try await SharedScanner.get().scan(imageData: data, name: "gridded.png")
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        let lifted = try #require(poem.preprocessingReport.liftedWhitePoint, "the prepared page was not the one kept")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONExporter().export(poem)) as? [String: Any])
        let image = try #require(json["image"] as? [String: Any]), steps = try #require(image["preprocessing"] as? [String: Any])
        #expect(steps["whitePoint"] as? Int == lifted)
        #expect(characterErrorRate(poem.recognizedText, truth: truth) <= 0.02, "\(poem.recognizedText)")
        let plain = try await SharedScanner.get().recognizer.recognize(
            decoded, options: ScanConfiguration().recognition, name: "gridded.png")
        #expect(characterErrorRate(plain.text, truth: truth) > 0.3, "the grid no longer fools Tesseract: \(plain.text)")
    }
}
