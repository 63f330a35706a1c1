import CTesseract
import CTesseractShim

extension PixImage {
    /// Gives these pixels to a Tesseract handle (`TessBaseAPISetImage2`) without ever letting
    /// Tesseract write to them, so that an image shared by several engines at once stays
    /// read-only.
    ///
    /// Tesseract copies the image it is given (`ImageThresholder::SetImage` guarantees its own
    /// copy, never a `pixClone`, so Leptonica's non-atomic reference count is not touched) and
    /// only reads the caller's pixels, except for an image of four samples a pixel read from a
    /// PNG, whose alpha `TessBaseAPI::SetImage` removes in place: only such an image is copied
    /// here first. Copying every image, as before, cost a second copy of each page for every
    /// layout analysis and every engine's reading.
    ///
    /// - Returns: how the call ended, or nil when the private copy could not be allocated.
    func hand(to handle: OpaquePointer) -> snap_poem_call_status? {
        guard pixGetSpp(pointer) == 4 else { return snap_poem_tess_set_image2(handle, pointer) }
        var privateCopy = pixCopy(nil, pointer)
        guard privateCopy != nil else { return nil }
        defer { pixDestroy(&privateCopy) }
        return snap_poem_tess_set_image2(handle, privateCopy)
    }
}
