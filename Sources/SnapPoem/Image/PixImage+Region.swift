import CTesseract

extension PixImage {
    /// A same-size copy in which everything outside `region` is white.
    ///
    /// This is how snap-poem restricts recognition to a region of interest: Tesseract's own
    /// `SetRectangle` is broken for the LSTM engine (it recognises the wrong part of the image;
    /// tesseract-ocr/tesseract#845, still so in 5.3.0), and cropping would move every
    /// coordinate of the results. Masking keeps boxes, hOCR, TSV and ALTO in the image's own
    /// coordinates. `region` must already be clipped to the image.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when Leptonica cannot allocate the copy.
    func keepingOnly(_ region: BoundingBox) throws(SnapPoemError) -> PixImage {
        let source = hasColormap ? try transformed("pixConvertTo8") { pixConvertTo8($0, 0) } : self
        let canvas = try source.transformed("pixCreateTemplate") { pixCreateTemplate($0) }
        if source.depth == 1 {
            pixClearAll(canvas.pointer)  // 0 is white in 1-bit images
        } else {
            pixSetAll(canvas.pointer)  // all bits set is white at 8 and 32 bits
        }
        pixRasterop(
            canvas.pointer, Int32(region.left), Int32(region.top), Int32(region.width), Int32(region.height),
            PIX_SRC, source.pointer, Int32(region.left), Int32(region.top))
        return canvas
    }
}
