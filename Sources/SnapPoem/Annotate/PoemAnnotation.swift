import Foundation

/// A picture of what a scan read: the upright photo with a box around every recognised word,
/// coloured by Tesseract's confidence (`ConfidenceBand`), the replaced words tinted in their
/// own colour, each line's number in the margin, the text-like ink that no word covers (the
/// coverage check's unread regions) outlined with dashes, and a small legend.
///
/// Made from a scan's result and the upright image it read (EXIF orientation applied, at its
/// own size: the `ScannedPoem.uprightImage` a scan keeps when
/// `ScanConfiguration.keepsUprightImage` is set). Every box is mapped back from the image
/// Tesseract saw through what preprocessing did (`PreprocessingGeometry`: scale, quarter turn,
/// deskew), so a word of a tilted photo gets a box tilted with it. Drawn with Leptonica,
/// including the numbers and the legend (its built-in bitmap font: ASCII only).
///
/// ```swift
/// var configuration = ScanConfiguration(replacements: ["Lenore": "Alex"])
/// configuration.keepsUprightImage = true
/// let scanner = try await PoemScanner(configuration: configuration)
/// let poem = try await scanner.scan(fileAt: "Lenore.png")
/// let annotation = try poem.annotated()
/// try OutputFile.write(try annotation.pngData(), to: "Lenore.annotated.png")
/// for word in annotation.words where word.band == .doubtful { print(word.text, word.bounds) }
/// ```
public struct PoemAnnotation: Sendable {
    /// The annotated image, in colour.
    public var image: PoemImage
    /// Annotated-image pixels per upright-image pixel, across and down: 1 at the upright
    /// image's own size.
    public var scale: (x: Double, y: Double)
    /// Every recognised word with visible text, in reading order (the order of
    /// `RecognizedPage.words`, blank words left out), as marked.
    public var words: [AnnotatedWord]
    /// The line numbers written in the margin.
    public var lineLabels: [LineLabel]
    /// The unread regions as outlined.
    public var unreadRegions: [AnnotatedRegion]
    /// Where the legend is, or nil when there is none (switched off, or no room for it).
    public var legend: BoundingBox?
    /// The median height of the recognised lines, from the top of their tallest letters to
    /// the foot of their descenders, in the annotated image's pixels; 0 when none was read.
    public var typicalLineHeight: Double

    /// Draws the annotation of `poem` on `image`.
    ///
    /// - Parameters:
    ///   - poem: a scan's result.
    ///   - image: the upright image the scan read, at its own size
    ///     (`preprocessingReport.inputWidth` × `inputHeight`).
    ///   - style: colours, bands, line numbers and legend.
    ///   - maximumSide: draw on a copy scaled down so that its longer side is at most this
    ///     many pixels (for a web page); nil keeps the image's size. Marks, numbers and legend
    ///     are drawn at the size they are shown.
    /// - Throws: `SnapPoemError.invalidOption` when `image` is not the size of the image the
    ///   scan read or `maximumSide` is under 16; `.exportFailed` when Leptonica cannot make
    ///   the drawing (out of memory).
    public init(
        of poem: ScannedPoem, on image: PoemImage, style: AnnotationStyle = .standard, maximumSide: Int? = nil
    ) throws(SnapPoemError) {
        let report = poem.preprocessingReport
        guard image.width == report.inputWidth, image.height == report.inputHeight else {
            throw .invalidOption(
                option: "PoemAnnotation image",
                reason:
                    "the image is \(image.width)×\(image.height) pixels but \(poem.source) was read from a \(report.inputWidth)×\(report.inputHeight) upright image; pass the image the scan decoded (ScannedPoem.uprightImage)"
            )
        }
        if let maximumSide, maximumSide < 16 {
            throw .invalidOption(option: "PoemAnnotation maximumSide", reason: "\(maximumSide) pixels is too small; use at least 16")
        }
        let size = Self.size(width: image.width, height: image.height, maximumSide: maximumSide)
        guard let canvas = DrawingCanvas(copying: image, width: size.width, height: size.height) else {
            throw .exportFailed(
                path: poem.source, format: "annotated image",
                reason: "Leptonica could not make a \(size.width)×\(size.height) colour copy to draw on (out of memory?)")
        }
        let plan = AnnotationPlan(poem: poem, style: style, width: size.width, height: size.height)
        let painted = AnnotationPainter(plan: plan, style: style).paint(on: canvas)
        guard painted.failures == 0 else {
            throw .exportFailed(
                path: poem.source, format: "annotated image",
                reason: "Leptonica could not draw \(painted.failures) of the marks (out of memory?); nothing was written")
        }
        self.image = painted.image
        self.scale = plan.scale
        self.words = plan.words
        self.lineLabels = painted.lineLabels
        self.unreadRegions = plan.unreadRegions
        self.legend = painted.legend
        self.typicalLineHeight = plan.typicalLineHeight
    }

    /// The annotated image as PNG (`pixWriteMem`): lossless, for a file.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when Leptonica cannot encode it.
    public func pngData() throws(SnapPoemError) -> Data {
        guard let data = image.encoded(as: .png) else {
            throw .exportFailed(path: "annotation", format: "PNG", reason: "Leptonica could not encode the annotated image")
        }
        return data
    }

    /// The annotated image as JPEG of `quality` 1–100 (`pixWriteMemJpeg`): a fraction of the
    /// PNG's size for a photo, for embedding in a web page.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when Leptonica cannot encode it.
    public func jpegData(quality: Int = 88) throws(SnapPoemError) -> Data {
        guard let data = image.encoded(as: .jpeg(quality: min(max(quality, 1), 100))) else {
            throw .exportFailed(path: "annotation", format: "JPEG", reason: "Leptonica could not encode the annotated image")
        }
        return data
    }

    /// The size to draw at: the image's own, or scaled down to `maximumSide`.
    static func size(width: Int, height: Int, maximumSide: Int?) -> (width: Int, height: Int) {
        guard let maximumSide, max(width, height) > maximumSide else { return (width, height) }
        let factor = Double(maximumSide) / Double(max(width, height))
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }
}

/// One recognised word as an annotated image marks it.
public struct AnnotatedWord: Sendable, Equatable {
    /// The word as Tesseract read it.
    public var text: String
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// The band of `confidence`, which gives its box its colour.
    public var band: ConfidenceBand
    /// The corners of its box (the word's box with a small margin) in the annotated image's
    /// pixels: top left, top right, bottom right, bottom left. Tilted with the text when the
    /// scan straightened it.
    public var corners: [ImagePoint]
    /// The smallest box of whole pixels around `corners`, clipped to the image.
    public var bounds: BoundingBox
    /// The line of the personalised poem (`ScannedPoem.text`, 1-based, blank lines counted)
    /// the word is on; nil when the word cannot be found in the text.
    public var line: Int?
    /// Which of `ScannedPoem.personalized.changes` replaced (part of) this word; nil when
    /// none did.
    public var change: Int?
}

/// A line number as written in the margin of an annotated image.
public struct LineLabel: Sendable, Equatable {
    /// The line of the personalised poem (1-based, blank lines counted).
    public var line: Int
    /// Where the number is drawn, in the annotated image's pixels (its panel included).
    public var bounds: BoundingBox
}

/// A region of text-like ink that no recognised word covers, as an annotated image outlines
/// it.
public struct AnnotatedRegion: Sendable, Equatable {
    /// The corners of the outline in the annotated image's pixels: top left, top right,
    /// bottom right, bottom left.
    public var corners: [ImagePoint]
    /// The smallest box of whole pixels around `corners`, clipped to the image.
    public var bounds: BoundingBox
}

extension ScannedPoem {
    /// The annotation of this scan drawn on the upright image it kept
    /// (`ScanConfiguration.keepsUprightImage`): see `PoemAnnotation`.
    ///
    /// - Throws: `SnapPoemError.invalidOption` when the scan did not keep its image, and as
    ///   `PoemAnnotation.init(of:on:style:maximumSide:)`.
    public func annotated(style: AnnotationStyle = .standard, maximumSide: Int? = nil) throws(SnapPoemError) -> PoemAnnotation {
        guard let uprightImage else {
            throw .invalidOption(
                option: "ScanConfiguration.keepsUprightImage",
                reason:
                    "\(source) was scanned without keeping its image; set keepsUprightImage to draw on it, or pass the image to PoemAnnotation(of:on:)"
            )
        }
        return try PoemAnnotation(of: self, on: uprightImage, style: style, maximumSide: maximumSide)
    }
}
