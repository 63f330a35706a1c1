import CTesseract

/// The marks of a thresholded image, its 8-connected black shapes (`pixConnComp`), sorted
/// into letter-sized ones and the rest by the text's x-height.
///
/// Straight sheet edges, the edge of a table, ruled lines and pictures are long or large; text
/// is a crowd of small shapes of about one height. The tilt measured on the letter-sized
/// shapes alone cannot be outvoted by one long edge (a 1470 px sheet edge outweighs hundreds
/// of letters in a projection over all the ink), and the text coverage check counts only
/// marks that could be letters.
struct LetterShapes {
    /// Every shape's bounding box, in the image's pixels.
    let boxes: [BoundingBox]
    /// The size a shape must have to count as a letter.
    let bounds: LetterBounds

    /// Finds the shapes of a 1-bit image (black is ink).
    init(of binary: PixImage, xHeight: Double?) {
        precondition(binary.depth == 1, "shapes are found in 1-bit images")
        self.boxes = binary.shapeBoxes()
        self.bounds = LetterBounds(xHeight: xHeight, imageWidth: binary.width, imageHeight: binary.height)
    }

    /// How many shapes are letter-sized.
    var letterCount: Int { boxes.count(where: bounds.admits) }
    /// How many shapes are larger than any letter: sheet and table edges, rules, pictures.
    var oversizedCount: Int { boxes.count(where: bounds.exceeds) }
}

/// The sizes, in pixels, of a shape that may be a letter of text whose x-height is known.
struct LetterBounds: Sendable, Equatable {
    /// The least height: lower-case letters without ascender are one x-height tall; dots,
    /// commas, hyphens and specks of paper texture are much lower.
    var minimumHeight: Double
    /// The greatest height: capitals with an accent, letters with both ascender and
    /// descender (ſ, þ) and brackets stay under 3.2 x-heights.
    var maximumHeight: Double
    /// The greatest width: a few letters run together (ligatures, touching serifs) stay
    /// under 6 x-heights; a sheet edge or a ruled line is far wider.
    var maximumWidth: Double

    /// How many x-heights tall a letter may be, at most.
    static let tallestLetter = 3.2
    /// How many x-heights wide a shape of letters may be, at most.
    static let widestLetter = 6.0
    /// How many x-heights tall a letter is, at least.
    static let lowestLetter = 0.5
    /// Without an x-height, the largest share of the image's longer side a letter may span.
    static let largestShareOfSide = 0.1

    /// The bounds for text of x-height `xHeight`; without one, any shape taller than 3 px
    /// and under a tenth of the image's longer side.
    init(xHeight: Double?, imageWidth: Int, imageHeight: Int) {
        let limit = Self.largestShareOfSide * Double(max(imageWidth, imageHeight))
        if let xHeight, xHeight > 0 {
            minimumHeight = max(2, Self.lowestLetter * xHeight)
            maximumHeight = min(limit, Self.tallestLetter * xHeight)
            maximumWidth = min(limit, Self.widestLetter * xHeight)
        } else {
            minimumHeight = 4
            maximumHeight = limit
            maximumWidth = limit
        }
    }

    /// Whether `box` has the size of a letter.
    func admits(_ box: BoundingBox) -> Bool {
        Double(box.height) >= minimumHeight && !exceeds(box)
    }

    /// Whether `box` is larger than any letter.
    func exceeds(_ box: BoundingBox) -> Bool {
        Double(box.height) > maximumHeight || Double(box.width) > maximumWidth
    }
}

extension PixImage {
    /// The bounding boxes of the 8-connected black shapes of a 1-bit image (`pixConnComp`).
    func shapeBoxes() -> [BoundingBox] {
        precondition(depth == 1, "shapes are found in 1-bit images")
        guard let boxes = pixConnComp(pointer, nil, 8) else { return [] }
        defer {
            var owned: BoxaPointer? = boxes
            boxaDestroy(&owned)
        }
        return Self.boxes(of: boxes)
    }

    /// A copy of a 1-bit image keeping only the shapes `keep` accepts (`pixConnComp`, then
    /// `pixRemoveWithIndicator` for the others). Nil when Leptonica fails.
    func keepingShapes(where keep: (BoundingBox) -> Bool) -> PixImage? {
        precondition(depth == 1, "shapes are found in 1-bit images")
        var components: PixaPointer?
        guard let boxes = pixConnComp(pointer, &components, 8) else { return nil }
        defer {
            var ownedBoxes: BoxaPointer? = boxes
            boxaDestroy(&ownedBoxes)
            pixaDestroy(&components)
        }
        guard let components, let copy = attempt({ pixCopy(nil, $0) }) else { return nil }
        let indicator = numaCreate(boxaGetCount(boxes))
        defer {
            var owned = indicator
            numaDestroy(&owned)
        }
        var removesAny = false
        for box in Self.boxes(of: boxes) {
            let removes = !keep(box)
            removesAny = removesAny || removes
            numaAddNumber(indicator, removes ? 1 : 0)
        }
        guard removesAny else { return copy }
        guard pixRemoveWithIndicator(copy.pointer, components, indicator) == 0 else { return nil }
        return copy
    }

    /// The boxes of a `BOXA`, in order.
    private static func boxes(of boxa: BoxaPointer) -> [BoundingBox] {
        let count = Int(boxaGetCount(boxa))
        var result: [BoundingBox] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            if boxaGetBoxGeometry(boxa, Int32(index), &x, &y, &w, &h) == 0 {
                result.append(BoundingBox(left: Int(x), top: Int(y), right: Int(x + w), bottom: Int(y + h)))
            }
        }
        return result
    }
}
