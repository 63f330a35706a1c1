import CTesseract
import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

@Suite("Measuring the text before changing anything: size, polarity, lighting, tilt")
struct ImageAnalysisTests {
    /// Sample, x-height drawn (font metrics; thresholded letters come out a pixel or two taller).
    static let drawnXHeights: [(file: String, xHeight: Double)] = [
        ("Lenore.png", 21), ("chanson-d-automne.png", 24), ("photo-clean.png", 22),
        ("photo-low-resolution.png", 8), ("photo-phone-size.jpg", 42), ("photo-screenshot.png", 82),
        ("photo-uneven-light.jpg", 22), ("photo-inverted.png", 21),
    ]

    @Test("The x-height is measured within 15 % of what was drawn", arguments: drawnXHeights)
    func xHeight(file: String, xHeight: Double) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let measured = try #require(ImageAnalysis(measuring: image).xHeight)
        #expect(abs(measured - xHeight) <= 0.15 * xHeight, "\(file): measured \(measured), drawn \(xHeight)")
    }

    /// `count` heights from `floor` up like a tail of specks: each height holds about half
    /// as many as the one below.
    private static func specks(_ count: Int, from floor: Int) -> [Int] {
        var heights: [Int] = [], left = count, height = floor
        while left > 0 {
            let here = max(1, left / 2)
            heights += Array(repeating: height, count: here)
            left -= here
            height += 1
        }
        return heights
    }

    /// Running text of x-height `xHeight`: three x-height letters for every two ascenders,
    /// capitals or descenders about 1.4 times as tall.
    private static func letters(_ count: Int, xHeight: Int) -> [Int] {
        (0..<count).map { $0 % 5 < 3 ? xHeight + $0 % 2 : Int((Double(xHeight) * 1.4).rounded()) }
    }

    @Test("Specks falling away from the shortest height counted do not hide the letters' x-height")
    func specksAreSetAside() throws {
        // Screen grid or sensor noise: 2,000 specks against 300 letters of x-height 16.
        let heights = Self.specks(2000, from: ImageAnalysis.shortestLetter) + Self.letters(300, xHeight: 16)
        #expect(ImageAnalysis.risesFromSpecks(heights))
        let measured = try #require(ImageAnalysis.xHeight(fromLetterHeights: heights))
        #expect(abs(measured - 16) <= 1.5, "\(measured)")
        // Text whose letters really are that small keeps its x-height: nothing above to find.
        let tiny = Self.letters(400, xHeight: 4) + Self.specks(200, from: ImageAnalysis.shortestLetter)
        let small = try #require(ImageAnalysis.xHeight(fromLetterHeights: tiny))
        #expect(small < 5, "\(small)")
        // Letters alone never take that path.
        #expect(!ImageAnalysis.risesFromSpecks(Self.letters(300, xHeight: 16)))
    }

    @Test("A page under a screen's dot grid is measured by its letters, not its dots, and is not enlarged fourfold")
    func dotGridPage() throws {
        let data = try EditedSample.png("Lenore.png") { grey, width, height in
            var random = SeededGenerator(seed: 11)
            for top in stride(from: Int32(0), to: height - 8, by: 7) {
                for left in stride(from: Int32(0), to: width - 8, by: 7) {
                    let side = Int32.random(in: 4...6, using: &random), tall = Int32.random(in: 4...6, using: &random)
                    for y in top..<(top + tall) {
                        for x in left..<(left + side) {
                            var value: UInt32 = 0
                            pixGetPixel(grey, x, y, &value)
                            if value > 200 { pixSetPixel(grey, x, y, 90) }
                        }
                    }
                }
            }
        }
        let (image, _) = try ImageDecoder.decode(data: data, name: "dot-grid.png")
        let measured = try #require(ImageAnalysis(measuring: image).xHeight)
        // The dots (4-6 px) are not what is measured: the letters are, some grown by the dots
        // that touch them, so the measure lies between their x-height and their capitals'.
        #expect(measured >= 0.85 * 21 && measured <= 1.35 * 21, "measured \(measured), drawn 21")
        #expect(ImagePreprocessor.scaleFactor(for: image, mode: .automatic, xHeight: measured) < 1.5)
    }

    @Test("A blank page has no x-height, so automatic scaling keeps its size")
    func blankPage() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("blank.png"))
        let analysis = ImageAnalysis(measuring: image)
        #expect(analysis.xHeight == nil)
        #expect(!analysis.isLightOnDark)
        #expect(ImagePreprocessor.targetSize(of: image, mode: .automatic, xHeight: analysis.xHeight) == (image.width, image.height))
    }

    static let uprightSamples = [
        "Lenore.png", "chanson-d-automne.png", "photo-clean.png", "photo-rotated-3deg.jpg", "photo-rotated-5deg.jpg",
        "photo-blurred.jpg", "photo-low-resolution.png", "photo-phone-size.jpg", "photo-screenshot.png",
        "photo-uneven-light.jpg", "photo-vignette-shadow.jpg", "photo-coloured.jpg", "photo-jpeg-artefacts.jpg",
        "photo-low-contrast.png", "photo-inverted.png", "photo-inverted-noisy.jpg", "orientation/orientation-1.jpg",
        "formats/stanza-rgb8.png",
    ]

    @Test("Light text on a dark ground is recognised as such, and only that", arguments: uprightSamples)
    func polarity(file: String) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let analysis = ImageAnalysis(measuring: image)
        #expect(analysis.isLightOnDark == file.hasPrefix("photo-inverted"), "\(file): polarity \(analysis.polarity)")
    }

    @Test("Uneven lighting is told from even lighting", arguments: uprightSamples)
    func lighting(file: String) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let unevenness = ImageAnalysis(measuring: image).unevenness
        // The phone photo's page is lit from one corner and vignetted (0.19), just under the
        // bar; its dark table, which made it look uneven before, is left out (surroundShare).
        let uneven = ["photo-uneven-light.jpg", "photo-vignette-shadow.jpg", "photo-inverted-noisy.jpg"]
        #expect((unevenness >= ImageAnalysis.unevenLighting) == uneven.contains(file), "\(file): unevenness \(unevenness)")
    }

    @Test(
        "Tilts are measured to a few tenths of a degree, with their sign",
        arguments: [
            ("photo-rotated-3deg.jpg", 3.0), ("photo-rotated-5deg.jpg", -5.0), ("photo-clean.png", 0.0), ("Lenore.png", 0.0),
        ])
    func skew(file: String, angle: Double) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let skew = try #require(ImagePreprocessor.measureSkew(image))
        #expect(abs(skew.angle - angle) <= 0.3, "\(file): \(skew)")
        #expect(ImagePreprocessor.shouldDeskew(skew) == (angle != 0), "\(file): \(skew)")
    }

    @Test("Tiny and uniform images are measured without trouble", arguments: [(1, 1), (5, 400), (23, 23), (300, 200)])
    func degenerateImages(width: Int, height: Int) throws {
        let image = try #require(PoemImage.filled(width: width, height: height, gray: 128))
        let analysis = ImageAnalysis(measuring: image)
        #expect(analysis.xHeight == nil)
        #expect(ImagePreprocessor.measureSkew(image) == nil)
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(filter: .adaptive))
        #expect(prepared.report.scaleFactor == 1)
    }
}
