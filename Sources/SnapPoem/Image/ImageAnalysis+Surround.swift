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
/// into the paper around it) that is darker than half the paper's brightness (or, when that
/// takes in a shadowed part of the page, a third or a quarter of it), touches the image's
/// border, and ends in a step: the paper just beside it is several times brighter. It is
/// left alone when any row of text reaches into it (a deep shadow over the page,
/// as in `photo-uneven-light.jpg`, also reaches the border and is as dark as a table), when it
/// is under 2 % of the image (a dark corner), or when it is over 92 % (then there is no sheet
/// to speak of; a sheet photographed from afar, a tenth of the photo, is still one).
extension ImageAnalysis {
    /// The bars, as shares of the paper's brightness (the 95th percentile of the background
    /// map), that a surround is darker than, tried in this order. Measured: the samples'
    /// tables at 0.15–0.25 of the sheet.
    public static let surroundDarknesses = [0.5, 0.35, 0.25]
    /// Across a sheet's edge the brightness jumps: the paper just outside the surround (two
    /// map pixels, 8 px of the measuring copy) is at least this many times as bright as the
    /// surround just inside it. Across the darkest part of a shadow it barely changes.
    /// Measured: 3.8–5.2 at the tables of the samples and the tilt-sweep pages, 1.1 and 1.9
    /// at the shadows of `photo-uneven-light.jpg` and `photo-vignette-shadow.jpg` (the latter
    /// hard-edged).
    public static let sheetEdgeStep = 2.8
    /// The least share of the image a surround takes; smaller dark patches at the border
    /// are left as they are.
    public static let smallestSurround = 0.02
    /// The largest share of the image a surround may take. At 0.7, a sheet photographed
    /// from afar (an eighth of the photo) kept its table, and Tesseract's layout analysis
    /// spent 9 s on the grain (`border-003` of the corpus's tune part: 13.4 s, then 1.1 s).
    public static let largestSurround = 0.92

    /// The background map of a measuring copy with dark marks (`pixGetBackgroundGrayMapMorph`:
    /// a grey closing with a 15 px square at a reduction of 4, i.e. 60 px on the copy). Nil
    /// for copies under 120 px a side.
    static func backgroundMap(of gray: PixImage) -> PixImage? {
        guard min(gray.width, gray.height) >= 120 else { return nil }
        var map: PixPointer?
        guard pixGetBackgroundGrayMapMorph(gray.pointer, nil, 4, 15, &map) == 0 else { return nil }
        return PixImage.taking(map)
    }

    /// Finds the dark surround in a background `map` (see above). `copy` is the measuring
    /// copy (dark marks) and `shapes` its shapes, to tell a shadow over text from a table;
    /// `xHeight` is the x-height measured over the whole copy, used when the sheet alone has
    /// no letters to measure. The darkness bar is tried at each of `surroundDarknesses` in
    /// turn: under a shadow the page itself can be darker than half its brightest paper and
    /// join the table; a lower bar then separates them. For each dark region the text is
    /// measured on the rest of the image (a table's grain, thresholded, is a crowd of specks
    /// that would halve the x-height and hide the letters), and its rows of ink (`isInk`:
    /// the grain also stands in rows) are looked for inside it. Returns a 1-bit mask at the
    /// map's size, grown by one map pixel (4 px of the copy) to take in the sheet's edge, the
    /// share of the image it covers, and the paper's grey level (the map's 95th percentile);
    /// nil when there is no surround.
    static func surround(
        inMap map: PixImage, copy: PixImage, shapes: [BoundingBox], xHeight: Double?
    ) -> (mask: PixImage, share: Double, paper: UInt8)? {
        var paper: UInt32 = 0
        guard pixGetRankValue(map.pointer, 1, 0.95, &paper) == 0, paper > 0 else { return nil }
        let scale = Double(map.width) / Double(max(1, copy.width))
        for darkness in surroundDarknesses {
            let threshold = Int32((Double(paper) * darkness).rounded())
            guard let candidate = Self.darkBorderRegion(of: map, below: threshold) else { continue }
            func isInside(_ shape: BoundingBox) -> Bool {
                var value: UInt32 = 0
                pixGetPixel(candidate.mask.pointer, Int32(shape.centerX * scale), Int32(shape.centerY * scale), &value)
                return value != 0
            }
            let onSheet = shapes.filter { !isInside($0) }
            let sheetXHeight = Self.xHeight(fromLetterHeights: Self.letterHeights(of: onSheet, imageHeight: copy.height)) ?? xHeight
            var rows: [[BoundingBox]] = []
            if let sheetXHeight {
                let bounds = LetterBounds(xHeight: sheetXHeight, imageWidth: copy.width, imageHeight: copy.width)
                rows = TextInk.rows(of: shapes.filter(bounds.admits), xHeight: sheetXHeight).map(\.shapes)
                    .filter { Self.isInk($0, in: copy, map: map, scale: scale) }
            }
            // Text inside is a shadow over the page, not a table: a row of ink that reaches
            // into it, even by its last letter (a page darker toward one side joins the table
            // there, and its line ends would be painted over).
            let holdsText = rows.contains { row in row.contains(where: isInside) }
            guard !holdsText, let grown = candidate.mask.attempt({ pixDilateBrick(nil, $0, 3, 3) }) else { continue }
            return (grown, candidate.share, UInt8(min(255, paper)))
        }
        return nil
    }

    /// Whether a row of shapes of the measuring `copy` is ink on paper, not the grain of a
    /// dark table: the darkest pixel of its median shape lies at least `minimumContrast` grey
    /// levels below the background `map` there (`scale`: the map's size relative to the
    /// copy's). Text in a deep shadow is still ink several times darker than its paper;
    /// the specks of a table differ from it by a few grey levels.
    static func isInk(_ row: [BoundingBox], in copy: PixImage, map: PixImage, scale: Double) -> Bool {
        let contrasts = row.map { shape -> Int in
            var darkest: UInt32 = 255
            for y in max(0, shape.top)..<min(copy.height, shape.bottom) {
                for x in max(0, shape.left)..<min(copy.width, shape.right) {
                    var value: UInt32 = 0
                    pixGetPixel(copy.pointer, Int32(x), Int32(y), &value)
                    darkest = min(darkest, value)
                }
            }
            var paper: UInt32 = 0
            let mapX = min(map.width - 1, Int(shape.centerX * scale)), mapY = min(map.height - 1, Int(shape.centerY * scale))
            pixGetPixel(map.pointer, Int32(mapX), Int32(mapY), &paper)
            return Int(paper) - Int(darkest)
        }.sorted()
        guard !contrasts.isEmpty else { return false }
        return contrasts[contrasts.count / 2] >= minimumContrast
    }

    /// The part of `map` darker than `threshold` that touches its border, when it takes
    /// `smallestSurround`–`largestSurround` of the map and ends in a step
    /// (`sheetEdgeStep`); with its share of the map.
    private static func darkBorderRegion(of map: PixImage, below threshold: Int32) -> (mask: PixImage, share: Double)? {
        guard let dark = map.attempt({ pixThresholdToBinary($0, threshold) }),
            let touching = dark.attempt({ pixExtractBorderConnComps($0, 8) })
        else { return nil }
        var count: Int32 = 0
        guard pixCountPixels(touching.pointer, &count, nil) == 0 else { return nil }
        let share = Double(count) / Double(max(1, map.width * map.height))
        guard share >= smallestSurround, share <= largestSurround else { return nil }
        // A sheet's edge is a step: just outside the table the paper is several times
        // brighter than the table just inside. A shadow fades: on both sides of where it
        // crosses the bar the brightness is about the same.
        guard let wider = touching.attempt({ pixDilateBrick(nil, $0, 5, 5) }),
            let rim = wider.attempt({ pixXor(nil, $0, touching.pointer) }),
            let narrower = touching.attempt({ pixErodeBrick(nil, $0, 5, 5) }),
            let edge = touching.attempt({ pixXor(nil, $0, narrower.pointer) })
        else { return nil }
        var outside: Float = 0, inside: Float = 0
        guard pixGetAverageMasked(map.pointer, rim.pointer, 0, 0, 1, Int32(L_MEAN_ABSVAL), &outside) == 0,
            pixGetAverageMasked(map.pointer, edge.pointer, 0, 0, 1, Int32(L_MEAN_ABSVAL), &inside) == 0,
            Double(outside) >= sheetEdgeStep * max(1, Double(inside))
        else { return nil }
        return (touching, share)
    }

    /// The marks of a thresholded measuring copy once the dark surround of a photographed
    /// sheet is taken out of them, and the letter heights measured on what is left.
    struct SheetMarks {
        /// The thresholded copy, without its ink inside the surround when there is one.
        var binary: PixImage
        /// The boxes of `binary`'s marks.
        var shapes: [BoundingBox]
        /// The plausible letter heights among `shapes` (`letterHeights(of:imageHeight:)`).
        var letterHeights: [Int]
        /// The surround found (`surround(inMap:copy:shapes:xHeight:)`); nil when there is none.
        var surround: (mask: PixImage, share: Double, paper: UInt8)?
        /// The x-height measured before the surround was taken out (what the surround was
        /// found with).
        var xHeightWithSurround: Double?
    }

    /// Finds the dark surround of a photographed sheet in `copy` (the grey measuring copy,
    /// dark marks; `map` its background map) and takes it out of `binary` (`copy`
    /// thresholded). The text is measured on what is left: a table's grain, thresholded, is a
    /// crowd of letter-sized specks in rows that can outnumber the letters, halve the
    /// x-height, and be read again region by region for nothing.
    static func sheetMarks(of binary: PixImage, copy: PixImage, map: PixImage?) -> SheetMarks {
        let shapes = binary.shapeBoxes()
        let heights = letterHeights(of: shapes, imageHeight: binary.height)
        let measured = xHeight(fromLetterHeights: heights)
        guard let map, let surround = surround(inMap: map, copy: copy, shapes: shapes, xHeight: measured) else {
            return SheetMarks(binary: binary, shapes: shapes, letterHeights: heights, surround: nil, xHeightWithSurround: measured)
        }
        let cleared = removing(surround.mask, from: binary)
        let clearedShapes = cleared.shapeBoxes()
        return SheetMarks(
            binary: cleared, shapes: clearedShapes, letterHeights: letterHeights(of: clearedShapes, imageHeight: cleared.height),
            surround: surround, xHeightWithSurround: measured)
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
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate an image.
    public static func clearedSurround(_ image: PoemImage) throws(SnapPoemError) -> PoemImage {
        let gray = try grayscale(image)
        let (analysis, measured) = ImageAnalysis.measure(gray.pix)
        guard let surround = measured?.surround else { return gray }
        let tone = measured?.paperTone ?? 255
        return try clearing(surround, from: gray, tone: analysis.isLightOnDark ? 255 - tone : tone)
    }

    /// `image` (converted to 8-bit grey) with `surround` (a 1-bit mask at any scale) painted
    /// in `tone` (`pixScaleToSize`, `pixPaintThroughMask`).
    static func clearing(_ surround: PixImage, from image: PoemImage, tone: UInt8 = 255) throws(SnapPoemError) -> PoemImage {
        let gray = try grayscale(image)
        try gray.pix.ensureRoomForOperation("pixPaintThroughMask")
        guard let mask = surround.attempt({ pixScaleToSize($0, Int32(gray.width), Int32(gray.height)) }),
            let copy = gray.pix.attempt({ pixCopy(nil, $0) }),
            pixPaintThroughMask(copy.pointer, mask.pointer, 0, 0, UInt32(tone)) == 0
        else { return gray }
        return PoemImage(pix: copy)
    }
}
