import CTesseract

/// The bound on Tesseract's layout analysis, checked before it starts.
///
/// Layout analysis (`TessBaseAPIAnalyseLayout`, and the first step of page recognition and
/// of orientation detection) cannot be interrupted: a time limit ends the wait for it, not
/// the work. Its cost follows the marks on the page, and on a page of scattered specks grows
/// faster than their number. So the marks are counted first, in milliseconds, and a page
/// with more than `RecognitionOptions.markLimit` is refused (`SnapPoemError.tooManyMarks`):
/// the work any input can cause is decided before the work starts.
enum PageMarks {
    /// Every how many pixels, across and down, the histogram of the Otsu split samples: 1 in
    /// 16 pixels. The split of a page is the same to a few grey levels (veil: 147 against
    /// 140, 1 739 marks against 1 812), and counting takes 23 ms instead of 76 ms on a
    /// 17-megapixel page (BENCHMARKS.md, "A bound on layout analysis").
    static let histogramSampling = 4

    /// Throws `SnapPoemError.tooManyMarks` when `image` (or the part of it inside `region`)
    /// holds more than `limit` marks. A count Leptonica could not make for want of memory
    /// throws `.outOfMemory`; nothing is counted when `limit` is nil.
    static func check(_ image: PoemImage, region: BoundingBox?, limit: Int?, name: String) throws(SnapPoemError) {
        guard let limit else { return }
        var counted = image
        if let region {
            let part: PoemImage?
            do throws(SnapPoemError) { part = try image.cropped(to: region) } catch { throw error.naming(name) }
            guard let part else { return }
            counted = part
        }
        guard let marks = count(counted.pix) else {
            throw .outOfMemory(path: name, stage: "counting the marks of the \(image.width)×\(image.height) page")
        }
        if marks > limit { throw .tooManyMarks(path: name, marks: marks, limit: limit) }
    }

    /// `check` as a question: the count when `image` (or its part inside `region`) holds more
    /// than `limit` marks, nil when it is within the bound or `limit` is nil.
    ///
    /// - Throws: what `check` throws but `.tooManyMarks` (`.outOfMemory`).
    static func marksOverLimit(_ image: PoemImage, region: BoundingBox?, limit: Int?, name: String) throws(SnapPoemError) -> Int? {
        do throws(SnapPoemError) {
            try check(image, region: region, limit: limit, name: name)
            return nil
        } catch {
            guard case .tooManyMarks(_, let marks, _) = error else { throw error }
            return marks
        }
    }

    /// The 8-connected dark shapes of `image` once thresholded at its Otsu split, as
    /// Tesseract thresholds a grey page (`pixSplitDistributionFgBg`, `pixThresholdToBinary`,
    /// `pixCountConnComp`); a 1-bit image is counted as it is. Nil when Leptonica fails.
    static func count(_ image: PixImage) -> Int? {
        let binary: PixImage
        if image.depth == 1 {
            binary = image
        } else {
            let grey = image.depth == 8 && !image.hasColormap ? image : image.attempt { pixConvertTo8($0, 0) }
            guard let grey, let thresholded = grey.otsuBinarized(histogramSampling: histogramSampling) else { return nil }
            binary = thresholded
        }
        guard binary.hasRoomForOperation else { return nil }
        var marks: Int32 = 0
        guard pixCountConnComp(binary.pointer, 8, &marks) == 0 else { return nil }
        return Int(marks)
    }
}
