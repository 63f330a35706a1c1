/// How to size the image before recognition.
///
/// Tesseract reads best when a lower-case letter is about 18–30 pixels tall: much smaller and
/// thresholding eats the strokes (a 300 dpi page shrunk to 640 px has 4 px letters and comes
/// out as garbage), much larger and layout analysis slows down for nothing.
public enum ScalingMode: Sendable, Equatable, Codable {
    /// Leave the size as it is (apart from the limits in `PreprocessingOptions`).
    case original
    /// Shrink so that the longer side is at most this many pixels, keeping the aspect ratio;
    /// never enlarges. The longer side becomes exactly the limit and the shorter one
    /// `round(shorter × limit / longer)`, halves rounding up (`pixScaleToSize`).
    case maxDimension(Int)
    /// Measure the text (`ImageAnalysis.xHeight`) and scale so that its x-height becomes
    /// `ScalingMode.targetXHeight`, unless it already lies in `comfortableXHeights`. The
    /// factor is kept within `automaticFactors`; with no measurable text the size is kept.
    case automatic

    /// The x-height the automatic mode aims for, in pixels.
    public static let targetXHeight = 24.0
    /// X-heights the automatic mode leaves alone, in pixels: resampling costs a little
    /// sharpness, and Tesseract reads this whole band about equally well. Measured
    /// (`snap-poem-bench scaling`, BENCHMARKS.md): enlarging print of 18–20 px to 24 px
    /// changed at most 6 characters in 4,000, better or worse depending on how the small
    /// image was made, for 3–22 % more recognition time; below 18 px it removed up to half
    /// the errors.
    public static let comfortableXHeights = 18.0...30.0
    /// The smallest and largest factor the automatic mode applies.
    public static let automaticFactors = 0.25...4.0
}
