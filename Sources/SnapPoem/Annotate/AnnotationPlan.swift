import Foundation

/// Where every mark of an annotation goes, before anything is drawn: each word's box on the
/// annotated image and its band, which words were replaced, which line of the poem each
/// recognised line is, and the unread regions. Pure geometry and bookkeeping.
struct AnnotationPlan {
    /// The annotated image's size.
    let width: Int
    let height: Int
    /// Annotated-image pixels per upright-image pixel.
    let scale: (x: Double, y: Double)
    /// The width of a word's outline, in the annotated image's pixels.
    let lineWidth: Int
    /// Whether the photo is light text on a dark ground, where the marks need a light halo
    /// to stand out.
    let darkGround: Bool
    /// The words, in reading order, blank ones left out.
    private(set) var words: [AnnotatedWord] = []
    /// The unread regions.
    private(set) var unreadRegions: [AnnotatedRegion] = []
    /// The recognised lines that have a line number, with where their number may go.
    private(set) var lines: [Line] = []
    /// The median height of the recognised lines (their tallest word's, from the top of its
    /// tallest letters to the foot of its descenders), in the annotated image's pixels; 0 when
    /// there are none.
    private(set) var typicalLineHeight: Double = 0

    /// A recognised line and the two places its number may go: left of its block's left
    /// edge, or right of the block's right edge, level with the middle of its first word.
    struct Line {
        /// The line of the personalised poem.
        var number: Int
        /// The block the line belongs to (its numbers are aligned in one column).
        var block: Int
        /// The middle of the block's left edge at this line, in the annotated image's pixels.
        var leftAnchor: ImagePoint
        /// The middle of the block's right edge at this line.
        var rightAnchor: ImagePoint
    }

    init(poem: ScannedPoem, style: AnnotationStyle, width: Int, height: Int) {
        self.width = width
        self.height = height
        let report = poem.preprocessingReport
        let geometry = report.geometry
        scale = (Double(width) / Double(max(1, report.inputWidth)), Double(height) / Double(max(1, report.inputHeight)))
        lineWidth = max(1, Int((Double(min(width, height)) / 700).rounded()))
        darkGround = report.analysis?.isLightOnDark ?? false

        // From the image Tesseract saw to the annotated image.
        let scale = self.scale
        func place(_ point: ImagePoint) -> ImagePoint {
            let upright = geometry.uprightPoint(fromRecognized: point)
            return ImagePoint(x: upright.x * scale.x, y: upright.y * scale.y)
        }
        func corners(left: Double, top: Double, right: Double, bottom: Double) -> [ImagePoint] {
            [
                ImagePoint(x: left, y: top), ImagePoint(x: right, y: top), ImagePoint(x: right, y: bottom),
                ImagePoint(x: left, y: bottom),
            ].map(place)
        }
        // A box's margin of `lineWidth + 1` annotated pixels, in the recognised image's pixels,
        // so that the outline stays off the letters.
        let recognizedToAnnotated =
            (Double(report.inputWidth) / Double(max(1, report.scaledWidth)) * scale.x
            * Double(report.inputHeight) / Double(max(1, report.scaledHeight)) * scale.y).squareRoot()
        let margin = Double(lineWidth + 1) / max(recognizedToAnnotated, 1e-6)

        let owners = WordOwners(poem: poem)
        var wordIndex = 0
        var heights: [Double] = []
        for (blockIndex, block) in poem.page.blocks.enumerated() {
            let blockWords = block.paragraphs.flatMap { $0.lines.flatMap(\.words) }.filter(\.hasVisibleText)
            let blockLeft = blockWords.map(\.boundingBox.left).min() ?? 0
            let blockRight = blockWords.map(\.boundingBox.right).max() ?? 0
            for line in block.paragraphs.flatMap(\.lines) {
                var lineNumber: Int?
                var first: BoundingBox?
                var tallest = 0
                for word in line.words {
                    defer { wordIndex += 1 }
                    guard word.hasVisibleText else { continue }
                    let box = word.boundingBox
                    let wordLine = owners.line(ofWord: wordIndex)
                    lineNumber = lineNumber ?? wordLine
                    if first == nil || box.left < first!.left { first = box }
                    tallest = max(tallest, box.height)
                    let outline = corners(
                        left: Double(box.left) - margin, top: Double(box.top) - margin, right: Double(box.right) + margin,
                        bottom: Double(box.bottom) + margin)
                    words.append(
                        AnnotatedWord(
                            text: word.text, confidence: word.confidence, band: style.band(forConfidence: word.confidence),
                            corners: outline, bounds: Self.bounds(of: outline, width: width, height: height), line: wordLine,
                            change: owners.change(ofWord: wordIndex)))
                }
                // A line's height is its tallest word's (ascenders to descenders): the line's
                // own box is taller than that when the text is tilted.
                guard let first else { continue }
                heights.append(Double(tallest) * recognizedToAnnotated)
                guard let lineNumber else { continue }
                // The number goes level with the line's first word, where the line starts.
                let middle = Double(first.top + first.bottom) / 2
                lines.append(
                    Line(
                        number: lineNumber, block: blockIndex, leftAnchor: place(ImagePoint(x: Double(blockLeft), y: middle)),
                        rightAnchor: place(ImagePoint(x: Double(blockRight), y: middle))))
            }
        }
        heights.sort()
        typicalLineHeight = heights.isEmpty ? 0 : heights[heights.count / 2]

        for region in poem.coverage?.unreadRegions ?? [] {
            let outline = corners(
                left: Double(region.left), top: Double(region.top), right: Double(region.right), bottom: Double(region.bottom))
            unreadRegions.append(AnnotatedRegion(corners: outline, bounds: Self.bounds(of: outline, width: width, height: height)))
        }
    }

    /// The smallest box of whole pixels around `corners`, clipped to the image.
    static func bounds(of corners: [ImagePoint], width: Int, height: Int) -> BoundingBox {
        func clamp(_ value: Double, _ limit: Int) -> Int {
            guard value.isFinite else { return 0 }
            return Int(min(max(value, 0), Double(limit)))
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let left = clamp((xs.min() ?? 0).rounded(.down), width), top = clamp((ys.min() ?? 0).rounded(.down), height)
        return BoundingBox(
            left: left, top: top, right: max(left, clamp((xs.max() ?? 0).rounded(.up), width)),
            bottom: max(top, clamp((ys.max() ?? 0).rounded(.up), height)))
    }
}
