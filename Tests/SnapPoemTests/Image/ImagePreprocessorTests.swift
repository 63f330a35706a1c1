import Foundation
import Testing

@testable import SnapPoem

@Suite("Preprocessing steps: sizes, tones, geometry, limits")
struct ImagePreprocessorTests {
    @Test(
        "--max-dimension N: longer side exactly N, shorter rounded half up, never enlarged",
        arguments: [
            (1000, 500, 640, 640, 320), (500, 1000, 640, 320, 640), (999, 500, 640, 640, 320),
            (1000, 15, 100, 100, 2), (1000, 5, 100, 100, 1), (1001, 3, 100, 100, 1), (4032, 3024, 640, 640, 480),
            (640, 480, 640, 640, 480), (300, 200, 640, 300, 200),
        ])
    func maxDimension(width: Int, height: Int, limit: Int, expectedWidth: Int, expectedHeight: Int) throws {
        let image = try #require(PoemImage.filled(width: width, height: height))
        let size = ImagePreprocessor.targetSize(of: image, mode: .maxDimension(limit), xHeight: nil)
        #expect(size == (expectedWidth, expectedHeight))
        let scaled = try ImagePreprocessor.scaled(image, mode: .maxDimension(limit))
        #expect((scaled.width, scaled.height) == (expectedWidth, expectedHeight))
    }

    @Test(
        "Automatic scaling aims at an x-height of 24 px and leaves 18–30 px alone",
        arguments: [
            (8.0, 3.0), (16.0, 1.5), (17.0, 24.0 / 17), (18.0, 1.0), (19.0, 1.0), (24.0, 1.0), (30.0, 1.0), (48.0, 0.5),
            (200.0, 0.25), (2.0, 4.0),
        ])
    func automaticFactor(xHeight: Double, factor: Double) throws {
        let image = try #require(PoemImage.filled(width: 100, height: 100))
        #expect(abs(ImagePreprocessor.scaleFactor(for: image, mode: .automatic, xHeight: xHeight) - factor) < 1e-9)
    }

    @Test(
        "Automatic scaling brings the phone photo and the low-resolution scan to the sweet spot",
        arguments: [
            "photo-phone-size.jpg", "photo-low-resolution.png", "photo-screenshot.png",
        ])
    func automaticScaling(file: String) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false))
        #expect(prepared.report.scaleFactor != 1)
        let after = try #require(ImageAnalysis(measuring: prepared.image).xHeight)
        #expect(ScalingMode.comfortableXHeights.contains(after), "\(file): x-height \(after) after scaling")
    }

    @Test("A side over Tesseract's 32767 px, or too many pixels, is scaled down with a note")
    func outputLimits() throws {
        let long = try #require(PoemImage.filled(width: 40_000, height: 10))
        let prepared = try ImagePreprocessor.process(long, options: .minimal)
        #expect(prepared.image.width <= PreprocessingOptions.tesseractMaxSide)
        #expect(prepared.report.notes.count == 1)
        #expect(prepared.report.notes.first?.hasPrefix("scaled down to 32767×8 instead of 40000×10") == true)

        let (photo, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-clean.png"))
        var options = PreprocessingOptions.minimal
        options.maxOutputPixels = 500_000
        let small = try ImagePreprocessor.process(photo, options: options)
        #expect(small.image.width * small.image.height <= 500_000)
        #expect(small.report.notes.count == 1)
    }

    @Test("The black-and-white table: contrast 1.1 about mid-grey, then +0.7 EV, clamped")
    func blackAndWhiteTable() {
        let table = ImagePreprocessor.blackAndWhiteTable
        #expect(table[...11].allSatisfy { $0 == 0 })  // (11/255 − 0.5) × 1.1 + 0.5 < 0
        #expect(table[12] == 1)
        #expect(table[100] == 158)  // ((100/255 − 0.5) × 1.1 + 0.5) × 2^0.7 × 255 = 158.0
        #expect(table[128] == 208)
        #expect(table[154] == 254)
        #expect(table[155...].allSatisfy { $0 == 255 })
    }

    @Test("flatten evens out a shadow: the paper reads alike on both sides")
    func flattenEvensOutShadow() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-uneven-light.jpg"))
        func paperLevels(_ image: PoemImage) throws -> (left: Double, right: Double) {
            let gray = try ImagePreprocessor.grayscale(image)
            let bytes = try gray.pix.grayBytes(), width = gray.width
            func brightest(_ columns: Range<Int>) -> Double {
                var values: [UInt8] = []
                for (index, value) in bytes.enumerated() where columns.contains(index % width) { values.append(value) }
                values.sort()
                return Double(values[values.count * 9 / 10])  // 90th percentile: paper, not ink
            }
            return (brightest(0..<(width / 5)), brightest((width * 4 / 5)..<width))
        }
        let before = try paperLevels(image)
        #expect(before.left - before.right > 60)
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false))
        #expect(prepared.report.flattened)
        let after = try paperLevels(prepared.image)
        #expect(abs(after.left - after.right) < 15, "paper left \(after.left), right \(after.right)")
    }

    @Test("flatten leaves an evenly lit page exactly as it is")
    func flattenLeavesEvenPages() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-clean.png"))
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false))
        #expect(!prepared.report.flattened && prepared.report.scaleFactor == 1 && prepared.report.deskewAngle == 0)
        #expect(try prepared.image == ImagePreprocessor.grayscale(image))
    }

    @Test("adaptive gives a 1-bit image; light text comes out dark on light")
    func adaptiveAndInversion() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-inverted.png"))
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(filter: .adaptive, detectsOrientation: false))
        #expect(prepared.image.bitsPerPixel == 1)
        #expect(prepared.report.inverted)
        #expect(ImageAnalysis(measuring: prepared.image).polarity < -0.5)
        let kept = try ImagePreprocessor.process(image, options: PreprocessingOptions(invertsLightText: false, detectsOrientation: false))
        #expect(!kept.report.inverted)
    }

    @Test("Deskew straightens the 5° page: the text lines measure level afterwards")
    func deskew() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-rotated-5deg.jpg"))
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false))
        #expect(abs(prepared.report.deskewAngle + 5) < 0.3)
        #expect(prepared.image.width > image.width)  // enlarged canvas: no corner cut off
        let after = try #require(ImagePreprocessor.measureSkew(prepared.image))
        #expect(abs(after.angle) < 0.3, "\(after)")
        let untouched = try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false, deskews: false))
        #expect(untouched.report.deskewAngle == 0 && untouched.report.skew == nil)
    }

    @Test("Quarter turns compose: four of them give the image back", arguments: [90, 180, 270, -90, 450])
    func quarterTurns(degrees: Int) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("orientation/orientation-1.jpg"))
        var turned = try ImagePreprocessor.rotated(image, clockwiseDegrees: degrees)
        #expect(turned != image)
        for _ in 0..<3 { turned = try ImagePreprocessor.rotated(turned, clockwiseDegrees: degrees) }
        #expect(turned == image)
    }

    @Test("The tutorial's pipeline is 640 px and black-and-white, nothing more")
    func tutorialPipeline() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-uneven-light.jpg"))
        let prepared = try ImagePreprocessor.process(image, options: .tutorial)
        #expect((prepared.image.width, prepared.image.height) == (640, 522))
        #expect(!prepared.report.flattened && !prepared.report.inverted && prepared.report.deskewAngle == 0)
        let byHand = try ImagePreprocessor.filtered(
            try ImagePreprocessor.scaled(try ImagePreprocessor.grayscale(image), mode: .maxDimension(640)), with: .blackAndWhite)
        #expect(prepared.image == byHand)
    }
}
