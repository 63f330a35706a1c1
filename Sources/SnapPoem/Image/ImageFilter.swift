/// What is done to the grey image's tones before recognition.
public enum ImageFilter: String, Sendable, Equatable, Codable, CaseIterable {
    /// Grey only: Tesseract's own global Otsu threshold does the rest.
    case none
    /// The original app's "black and white" filter: desaturate, contrast × 1.1 around
    /// mid-grey, then exposure +0.7 EV (values × 2^0.7 ≈ 1.62), clamped to 0…255; one lookup
    /// table on 8-bit grey. Levels 0–11 become black and 155–255 pure white, so it bleaches
    /// light text and pale ink.
    case blackAndWhite = "black-and-white"
    /// Flattens uneven light and keeps grey: divides the image by an estimate of its
    /// background (a grey closing on a reduced copy, `pixBackgroundNormMorph`), so that
    /// paper reads 200 everywhere, in shadow and vignette alike; Tesseract then thresholds
    /// it. In the pipeline it acts only when the measured `ImageAnalysis.unevenness` reaches
    /// `ImageAnalysis.unevenLighting`: an evenly lit page is left exactly as it is.
    case flatten
    /// Flattens as `flatten` does, then thresholds to pure black and white at the Otsu split
    /// of the flattened image. One threshold for the whole flattened page rather than one
    /// per window, so paper noise does not turn into speckle.
    case adaptive
}
