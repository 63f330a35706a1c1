import CTesseract

/// The dark surround of a photographed sheet: the table it lies on.
///
/// Seen by Tesseract, a table around the sheet costs lines. Flattening (which evens out
/// shadows) turns a dark table into grey paper with its grain as marks and the sheet's edge as
/// a long line; Tesseract then reads the grain as garbage ("aa Ah, broken…"), puts an "I" for
/// the edge in front of lines, and after deskewing can fuse the last line of text with the
/// tilted edge and lose it. So the surround is found while measuring and painted in the
/// paper's tone before anything else happens to the image (`ImagePreprocessor.clearedSurround`;
/// not white: a grey sheet on white reads to Tesseract as one big picture, with no text in it).
///
/// The surround is the part of the background map (a grey closing, in which text disappears
/// into the paper around it) that is darker than half the paper's brightness, touches the
/// image's border, and ends in a step: the paper just beside it is bright. It is left alone
/// when it holds a row of text (a deep shadow over the page,
/// as in `photo-uneven-light.jpg`, also reaches the border and is as dark as a table), when it
/// is under 2 % of the image (a dark corner), or when it is over 70 % (then there is no sheet
/// to speak of).
extension ImageAnalysis {
    /// A surround is darker than this share of the paper's brightness (the 95th percentile
    /// of the background map). Measured: wooden tables at 0.15–0.25 of the sheet.
    public static let surroundDarkness = 0.5
    /// Just inside a sheet's edge (two map pixels, 8 px of the measuring copy) the paper is at
    /// least this share of its brightness; next to a shadow's darkest part it is not. Measured:
    /// 0.86–1.00 beside the tables of the samples and the tilt-sweep pages, 0.50 beside the
    /// shadow of `photo-uneven-light.jpg`, 0.68 beside the hard-edged shadow of
    /// `photo-vignette-shadow.jpg`.
    public static let sheetEdgeBrightness = 0.75
    /// The least share of the image a surround takes; smaller dark patches at the border
    /// are left as they are.
    public static let smallestSurround = 0.02
    /// The largest share of the image a surround may take.
    public static let largestSurround = 0.7

    /// The background map of a measuring copy with dark marks (`pixGetBackgroundGrayMapMorph`:
    /// a grey closing with a 15 px square at a reduction of 4, i.e. 60 px on the copy). Nil
    /// for copies under 120 px a side.
    static func backgroundMap(of gray: PixImage) -> PixImage? {
        guard min(gray.width, gray.height) >= 120 else { return nil }
        var map: UnsafeMutablePointer<PIX>?
        guard pixGetBackgroundGrayMapMorph(gray.pointer, nil, 4, 15, &map) == 0 else { return nil }
        return PixImage.taking(map)
    }

    /// Finds the dark surround in a background `map` (see above). `shapes` are the shapes of
    /// the measuring copy (of width `copyWidth`), `xHeight` the text's x-height there, to tell
    /// a shadow over text from a table. Returns a 1-bit mask at the map's size, grown by one
    /// map pixel (4 px of the copy) to take in the sheet's edge, the share of the image it
    /// covers, and the paper's grey level (the map's 95th percentile); nil when there is no
    /// surround.
    static func surround(
        inMap map: PixImage, shapes: [BoundingBox], xHeight: Double?, copyWidth: Int
    ) -> (mask: PixImage, share: Double, paper: UInt8)? {
        var paper: UInt32 = 0
        guard pixGetRankValue(map.pointer, 1, 0.95, &paper) == 0, paper > 0 else { return nil }
        let threshold = Int32((Double(paper) * surroundDarkness).rounded())
        guard let dark = map.attempt({ pixThresholdToBinary($0, threshold) }),
            let touching = dark.attempt({ pixExtractBorderConnComps($0, 8) })
        else { return nil }
        var count: Int32 = 0
        guard pixCountPixels(touching.pointer, &count, nil) == 0 else { return nil }
        let share = Double(count) / Double(max(1, map.width * map.height))
        guard share >= smallestSurround, share <= largestSurround else { return nil }
        // A sheet's edge is a step: right next to the table the paper is bright. A shadow
        // fades: right next to its darkest part the paper is barely brighter.
        guard let wider = touching.attempt({ pixDilateBrick(nil, $0, 5, 5) }),
            let rim = wider.attempt({ pixXor(nil, $0, touching.pointer) })
        else { return nil }
        var rimBrightness: Float = 0
        guard pixGetAverageMasked(map.pointer, rim.pointer, 0, 0, 1, Int32(L_MEAN_ABSVAL), &rimBrightness) == 0,
            Double(rimBrightness) >= sheetEdgeBrightness * Double(paper)
        else { return nil }
        if let xHeight {
            let bounds = LetterBounds(xHeight: xHeight, imageWidth: copyWidth, imageHeight: copyWidth)
            let scale = Double(map.width) / Double(max(1, copyWidth))
            for row in TextInk.rows(of: shapes.filter(bounds.admits), xHeight: xHeight).map(\.shapes) {
                let inside = row.count { shape in
                    var value: UInt32 = 0
                    pixGetPixel(touching.pointer, Int32(shape.centerX * scale), Int32(shape.centerY * scale), &value)
                    return value != 0
                }
                if 2 * inside >= row.count { return nil }
            }
        }
        guard let grown = touching.attempt({ pixDilateBrick(nil, $0, 3, 3) }) else { return nil }
        return (grown, share, UInt8(min(255, paper)))
    }

    /// A 1-bit image without its ink inside `surround` (a 1-bit mask at any scale;
    /// `pixScaleToSize`, `pixSubtract`). The image itself when Leptonica fails.
    static func removing(_ surround: PixImage, from binary: PixImage) -> PixImage {
        guard let mask = surround.attempt({ pixScaleToSize($0, Int32(binary.width), Int32(binary.height)) }),
            let kept = binary.attempt({ pixSubtract(nil, $0, mask.pointer) })
        else { return binary }
        return kept
    }

    /// `unevenness` from a background `map` of the copy with dark marks, leaving out the
    /// surround (`excluding`, at the map's size) when there is one: a table says nothing
    /// about the light on the sheet.
    static func unevenness(ofMap map: PixImage, lightOnDark: Bool, excluding surround: PixImage?) -> Double {
        var low: Float = 0, high: Float = 0
        let paper = surround.flatMap { $0.attempt { pixInvert(nil, $0) } }
        guard pixGetRankValueMasked(map.pointer, paper?.pointer, 0, 0, 1, 0.05, &low, nil) == 0,
            pixGetRankValueMasked(map.pointer, paper?.pointer, 0, 0, 1, 0.95, &high, nil) == 0
        else { return 0 }
        let (dark, bright) = lightOnDark ? (255 - Double(high), 255 - Double(low)) : (Double(low), Double(high))
        guard bright > 0 else { return 0 }
        return max(0, 1 - dark / bright)
    }
}

extension ImagePreprocessor {
    /// Paints the dark surround of a photographed sheet (the table it lies on) in the tone of
    /// the sheet's paper, when `ImageAnalysis` finds one; returns the grey image unchanged
    /// otherwise. See `ImageAnalysis+Surround.swift` for how a surround is told from a
    /// shadow.
    public static func clearedSurround(_ image: PoemImage) -> PoemImage {
        let gray = grayscale(image)
        let (analysis, measured) = ImageAnalysis.measure(gray.pix)
        guard let surround = measured?.surround else { return gray }
        let tone = measured?.paperTone ?? 255
        return clearing(surround, from: gray, tone: analysis.isLightOnDark ? 255 - tone : tone)
    }

    /// `image` (converted to 8-bit grey) with `surround` (a 1-bit mask at any scale) painted
    /// in `tone` (`pixScaleToSize`, `pixPaintThroughMask`).
    static func clearing(_ surround: PixImage, from image: PoemImage, tone: UInt8 = 255) -> PoemImage {
        let gray = grayscale(image)
        guard let mask = surround.attempt({ pixScaleToSize($0, Int32(gray.width), Int32(gray.height)) }),
            let copy = gray.pix.attempt({ pixCopy(nil, $0) }),
            pixPaintThroughMask(copy.pointer, mask.pointer, 0, 0, UInt32(tone)) == 0
        else { return gray }
        return PoemImage(pix: copy)
    }
}
