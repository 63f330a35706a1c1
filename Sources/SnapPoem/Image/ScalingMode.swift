/// How to size the image before recognition.
///
/// Tesseract reads best when a lower-case letter is about 20–30 pixels tall: much smaller and
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
    /// sharpness, and Tesseract reads this whole band equally well.
    public static let comfortableXHeights = 20.0...30.0
    /// The smallest and largest factor the automatic mode applies.
    public static let automaticFactors = 0.25...4.0
}
