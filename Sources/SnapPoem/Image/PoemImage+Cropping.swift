import CTesseract

extension PoemImage {
    /// The part of the image inside `region` (clipped to the image), as it is
    /// (`pixClipRectangle`); nil when nothing of `region` lies in the image.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate the copy.
    func cropped(to region: BoundingBox) throws(SnapPoemError) -> PoemImage? {
        let area = region.clipped(width: width, height: height)
        guard area.width > 0, area.height > 0 else { return nil }
        guard let box = boxCreate(Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height)) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "cutting \(area) out of a \(width)×\(height) image")
        }
        defer {
            var owned: BoxPointer? = box
            boxDestroy(&owned)
        }
        return PoemImage(pix: try pix.transformed("pixClipRectangle") { pixClipRectangle($0, box, nil) })
    }

    /// The part of the image inside `region`, with every dark shape that `keep` refuses
    /// painted over in white: the coverage check uses it to read again only the text that
    /// Tesseract skipped, without the words around it that it did read, and without a
    /// table's dark edge or a picture that would come out as garbage.
    ///
    /// Shapes are the 8-connected marks of the crop thresholded at its Otsu split
    /// (`pixClipRectangle`, `pixSplitDistributionFgBg`, `pixConnComp`); `keep` gets each
    /// shape's box in the crop's own pixels. The refused shapes are grown by one pixel before
    /// they are painted over (`pixDilateBrick`, `pixPaintThroughMask`), so that no grey fringe
    /// of a letter is left behind. Nil when the region is empty or Leptonica fails.
    func cropped(to region: BoundingBox, keepingShapes keep: (BoundingBox) -> Bool) -> PoemImage? {
        let area = region.clipped(width: width, height: height)
        guard area.width > 0, area.height > 0 else { return nil }
        let needsGray = pix.hasColormap || (pix.depth != 1 && pix.depth != 8)
        guard let source = needsGray ? (try? ImagePreprocessor.grayscale(self))?.pix : pix,
            let box = boxCreate(Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height))
        else { return nil }
        defer {
            var owned: BoxPointer? = box
            boxDestroy(&owned)
        }
        guard let crop = source.attempt({ pixClipRectangle($0, box, nil) }) else { return nil }
        if crop.depth == 1 {
            return crop.keepingShapes(where: keep).map(PoemImage.init(pix:))
        }
        guard let binary = crop.otsuBinarized(), let kept = binary.keepingShapes(where: keep),
            let refused = binary.attempt({ pixXor(nil, $0, kept.pointer) }),
            let grown = refused.attempt({ pixDilateBrick(nil, $0, 3, 3) })
        else { return nil }
        guard pixPaintThroughMask(crop.pointer, grown.pointer, 0, 0, 255) == 0 else { return nil }
        return PoemImage(pix: crop)
    }
}
