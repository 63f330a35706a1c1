import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// The annotated image: its size, the colour of each word's box, the replaced words'
/// highlight, line numbers, unread regions and the legend. Pixels are read back from the
/// drawing (and from the PNG, decoded again), not taken on trust.
@Suite("Annotation: what was read, drawn on the upright image")
struct PoemAnnotationTests {
    // MARK: - A page built by hand: every box and confidence known

    /// A 900×500 white page read as two lines: "Lenore hath gone before" (confidences 96, 80,
    /// 41, 93) and "the sweet Lenore" (94, 95, 97), personalised Lenore → Alex through the real
    /// `ReplacementSet`, with one region of text left unread below.
    static func handmadePoem() throws -> (ScannedPoem, PoemImage) {
        func word(_ text: String, _ confidence: Double, _ left: Int, _ top: Int) -> RecognizedWord {
            RecognizedWord(
                text: text, confidence: confidence,
                boundingBox: BoundingBox(left: left, top: top, right: left + 24 * text.count, bottom: top + 40))
        }
        let first = [word("Lenore", 96, 120, 100), word("hath", 80, 290, 100), word("gone", 41, 420, 100), word("before", 93, 550, 100)]
        let second = [word("the", 94, 120, 170), word("sweet", 95, 210, 170), word("Lenore", 97, 350, 170)]
        let lines = [first, second].map { words in
            RecognizedLine(
                words: words,
                boundingBox: BoundingBox(
                    left: words[0].boundingBox.left, top: words[0].boundingBox.top, right: words.last!.boundingBox.right,
                    bottom: words[0].boundingBox.bottom),
                confidence: 90)
        }
        let page = RecognizedPage(
            text: "Lenore hath gone before\nthe sweet Lenore\n", meanConfidence: 85,
            blocks: [
                RecognizedBlock(
                    paragraphs: [RecognizedParagraph(lines: lines, boundingBox: BoundingBox(left: 120, top: 100, right: 694, bottom: 210))],
                    boundingBox: BoundingBox(left: 120, top: 100, right: 694, bottom: 210))
            ],
            timedOut: false, imageWidth: 900, imageHeight: 500)
        let text = "Lenore hath gone before\nthe sweet Lenore\n"
        let personalized = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")]).apply(to: text, words: page.words)
        let image = try #require(PoemImage.filled(width: 900, height: 500))
        let poem = ScannedPoem(
            source: "handmade.png", imageFacts: ImageFacts(format: .png, storedWidth: 900, storedHeight: 500, orientation: .up),
            recognizedWidth: 900, recognizedHeight: 500, preprocessingReport: PreprocessingReport(inputWidth: 900, inputHeight: 500),
            page: page,
            coverage: TextCoverage(
                textShapeCount: 40, coveredBeforeReread: 0.7, coveredAfterReread: 0.7,
                unreadRegions: [BoundingBox(left: 120, top: 300, right: 700, bottom: 350)]),
            recognizedText: text, personalized: personalized, timings: StageTimings())
        return (poem, image)
    }

    @Test("Each word's box has the colour of its confidence band; replaced words are green and tinted")
    func handmadeColours() throws {
        let (poem, image) = try Self.handmadePoem()
        let style = AnnotationStyle.standard
        let annotation = try PoemAnnotation(of: poem, on: image)
        #expect(annotation.image.width == 900 && annotation.image.height == 500)
        #expect(annotation.words.map(\.text) == ["Lenore", "hath", "gone", "before", "the", "sweet", "Lenore"])
        #expect(annotation.words.map(\.band) == [.sure, .unsure, .doubtful, .sure, .sure, .sure, .sure])
        #expect(annotation.words.map(\.change) == [0, nil, nil, nil, nil, nil, 1])
        #expect(annotation.words.map(\.line) == [1, 1, 1, 1, 2, 2, 2])
        for word in annotation.words {
            let expected = word.change == nil ? style.color(for: word.band) : style.replacedColor
            #expect(try leftEdgeColour(of: word, in: annotation.image) == expected, "\(word.text)")
        }
        // The replaced words are tinted inside: white paper × the tint is the tint.
        for word in annotation.words where word.change != nil {
            let inside = try pixel(annotation.image, x: word.bounds.left + 8, y: (word.bounds.top + word.bounds.bottom) / 2)
            #expect(inside == style.replacedTint, "\(word.text)")
        }
        // A word left alone is not tinted.
        let hath = annotation.words[1]
        #expect(
            try pixel(annotation.image, x: hath.bounds.left + 8, y: (hath.bounds.top + hath.bounds.bottom) / 2) == RGBColor(hex: 0xFFFFFF))
    }

    @Test("The unread region is outlined with magenta dashes; numbers stand left of the lines; the legend avoids the words")
    func handmadeRegionsNumbersLegend() throws {
        let (poem, image) = try Self.handmadePoem()
        let annotation = try PoemAnnotation(of: poem, on: image)
        let region = try #require(annotation.unreadRegions.first)
        #expect(region.bounds == BoundingBox(left: 120, top: 300, right: 700, bottom: 350))
        var magenta = 0, white = 0
        for x in stride(from: 120, to: 700, by: 1) {
            let colour = try pixel(annotation.image, x: x, y: 300)
            if colour == AnnotationStyle.standard.unreadColor { magenta += 1 }
            if colour == RGBColor(hex: 0xFFFFFF) { white += 1 }
        }
        #expect(magenta > 200 && white > 200, "dashes: \(magenta) magenta and \(white) white pixels along the top edge")

        #expect(annotation.lineLabels.map(\.line) == [1, 2])
        for label in annotation.lineLabels {
            #expect(label.bounds.right <= 120, "line \(label.line)'s number is left of the text: \(label.bounds)")
            #expect(try darkPixels(annotation.image, in: label.bounds) > 10, "line \(label.line)'s number is drawn")
        }
        let legend = try #require(annotation.legend)
        #expect(legend.left >= 0 && legend.right <= 900 && legend.top >= 0 && legend.bottom <= 500)
        for word in annotation.words {
            let overlaps =
                min(legend.right, word.bounds.right) > max(legend.left, word.bounds.left)
                && min(legend.bottom, word.bounds.bottom) > max(legend.top, word.bounds.top)
            #expect(!overlaps, "the legend covers \(word.text)")
        }
        #expect(try darkPixels(annotation.image, in: legend) > 100, "the legend has words")

        var plain = AnnotationStyle.standard
        plain.showsLegend = false
        plain.showsLineNumbers = false
        let bare = try PoemAnnotation(of: poem, on: image, style: plain)
        #expect(bare.legend == nil && bare.lineLabels.isEmpty)
        #expect(try darkPixels(bare.image, in: legend) == 0)
    }

    @Test("The wrong image, or a scan that kept none, is refused with a reason")
    func refusals() throws {
        let (poem, _) = try Self.handmadePoem()
        let other = try #require(PoemImage.filled(width: 901, height: 500))
        #expect(throws: SnapPoemError.self) { try PoemAnnotation(of: poem, on: other) }
        do {
            _ = try poem.annotated()
            Issue.record("a scan without its image was annotated")
        } catch {
            #expect(error.description.contains("keepsUprightImage"), "\(error)")
        }
        var kept = poem
        let same = try #require(PoemImage.filled(width: 900, height: 500))
        kept.uprightImage = same
        #expect(try kept.annotated().image.width == 900)
        #expect(throws: SnapPoemError.self) { try kept.annotated(maximumSide: 8) }
    }

    @Test("Drawn smaller for a web page, the marks scale with it")
    func scaledDown() throws {
        let (poem, image) = try Self.handmadePoem()
        let annotation = try PoemAnnotation(of: poem, on: image, maximumSide: 450)
        #expect(annotation.image.width == 450 && annotation.image.height == 250)
        #expect(abs(annotation.scale.x - 0.5) < 1e-9 && abs(annotation.scale.y - 0.5) < 1e-9)
        let lenore = annotation.words[0]
        #expect(abs(Double(lenore.bounds.left) - 60) <= 3 && abs(Double(lenore.bounds.right) - 132) <= 3, "\(lenore.bounds)")
        #expect(try leftEdgeColour(of: lenore, in: annotation.image) == AnnotationStyle.standard.replacedColor)
    }

    // MARK: - Lenore.png through the real pipeline

    @Test("Lenore.png: the PNG has the upright image's size, band colours on every box edge, green on the replaced words")
    func lenore() async throws {
        var poem = try await ExportFixtures.lenore.value
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("Lenore.png"))
        poem.uprightImage = image
        let annotation = try poem.annotated()
        let png = try annotation.pngData()
        let (decoded, facts) = try ImageDecoder.decode(data: png, name: "annotated.png")
        #expect(facts.format == .png)
        #expect(decoded.width == 1731 && decoded.height == 2622)

        let style = AnnotationStyle.standard
        let replaced = annotation.words.filter { $0.change != nil }
        #expect(replaced.map(\.text) == ["Lenore", "Guy", "De", "Vere,", "Lenore!", "Lenore"], "\(replaced.map(\.text))")
        var checked: [ConfidenceBand: Int] = [:]
        for word in annotation.words {
            // A box edge another mark may have painted over is not a fair test of this one.
            let x = Int(word.corners[0].x.rounded(.down)), y = Int(((word.corners[0].y + word.corners[3].y) / 2).rounded(.down))
            let crowded = annotation.words.contains { other in
                other != word && other.bounds.left - 4 <= x && x <= other.bounds.right + 4 && other.bounds.top <= y
                    && y <= other.bounds.bottom
            }
            if crowded { continue }
            let expected = word.change == nil ? style.color(for: word.band) : style.replacedColor
            #expect(try pixel(decoded, x: x, y: y) == expected, "\(word.text) (\(word.confidence), \(word.band))")
            if word.change == nil { checked[word.band, default: 0] += 1 }
        }
        #expect((checked[.sure] ?? 0) > 100, "\(checked)")
        #expect((checked[.unsure] ?? 0) + (checked[.doubtful] ?? 0) > 0, "\(checked)")
        // Line numbers: the title is line 1, "See! on yon … Lenore!" is line 6, as in the text.
        #expect(annotation.words.first { $0.text == "Lenore!" }?.line == 6)
        #expect(annotation.lineLabels.count >= 25)
        #expect(annotation.legend != nil)
    }
}

// MARK: - Reading pixels back

/// The colour of one pixel of a colour image (`pixGetRGBPixel`).
func pixel(_ image: PoemImage, x: Int, y: Int) throws -> RGBColor {
    try #require(image.bitsPerPixel == 32, "a colour image")
    var red: Int32 = 0, green: Int32 = 0, blue: Int32 = 0
    try #require(pixGetRGBPixel(image.pix.pointer, Int32(x), Int32(y), &red, &green, &blue) == 0, "pixel \(x),\(y) inside")
    return RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
}

/// The colour at the middle of a word's left edge, where its outline runs.
func leftEdgeColour(of word: AnnotatedWord, in image: PoemImage) throws -> RGBColor {
    let x = Int(word.corners[0].x.rounded(.down)), y = Int(((word.corners[0].y + word.corners[3].y) / 2).rounded(.down))
    return try pixel(image, x: x, y: y)
}

/// How many pixels of `area` are dark (every channel under 100): drawn text.
func darkPixels(_ image: PoemImage, in area: BoundingBox) throws -> Int {
    var count = 0
    for y in area.top..<area.bottom {
        for x in area.left..<area.right {
            let colour = try pixel(image, x: x, y: y)
            if colour.red < 100 && colour.green < 100 && colour.blue < 100 { count += 1 }
        }
    }
    return count
}
