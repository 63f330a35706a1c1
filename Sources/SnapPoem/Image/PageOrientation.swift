/// Something that tells how a page is turned, for `ImagePreprocessor.process(_:options:orientation:)`.
///
/// The Image stage knows nothing of OCR: it only asks this question. snap-poem's answer is
/// `OrientationDetector` (Tesseract's OSD, in the OCR stage); a test or another engine can
/// give its own.
public protocol PageOrientationDetecting: Sendable {
    /// How the page in `image` lies; nil when there is too little text to decide.
    ///
    /// - Throws: a `SnapPoemError` when the detector cannot run at all (its model does not
    ///   load, memory runs out); the caller leaves the page as it lies and says why.
    func detect(_ image: PoemImage) async throws(SnapPoemError) -> PageOrientation?
    /// Whether `orientation` is worth applying: not upright, and confident enough for this
    /// detector.
    func shouldApply(_ orientation: PageOrientation) -> Bool
}

/// How a page lies: the quarter turn that makes it upright, as an orientation detector
/// (in snap-poem, Tesseract's OSD through `OrientationDetector`) sees it.
public struct PageOrientation: Sendable, Equatable, Codable {
    /// The clockwise turn, in degrees (0, 90, 180 or 270), that makes the page upright.
    public var rotation: Int
    /// The detector's confidence in that answer (for Tesseract's OSD: 10–31 on the sample
    /// pages, 3–7 on a few lines, under 2 on a blank page). Whether it is enough to turn the
    /// page is the detector's call (`PageOrientationDetecting.shouldApply(_:)`).
    public var confidence: Double
    /// The writing system found, e.g. "Latin", when the detector names one.
    public var script: String?
    /// The detector's confidence in `script`.
    public var scriptConfidence: Double

    /// Creates an orientation record.
    public init(rotation: Int, confidence: Double, script: String? = nil, scriptConfidence: Double = 0) {
        self.rotation = rotation
        self.confidence = confidence
        self.script = script
        self.scriptConfidence = scriptConfidence
    }
}
