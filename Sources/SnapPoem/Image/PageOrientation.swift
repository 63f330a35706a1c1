/// How a page lies: the quarter turn that makes it upright, as an orientation detector
/// (in snap-poem, Tesseract's OSD through `OrientationDetector`) sees it. The Image stage
/// only turns a page by it; the pipeline decides when to ask (`PoemScanner`).
public struct PageOrientation: Sendable, Equatable, Codable {
    /// The clockwise turn, in degrees (0, 90, 180 or 270), that makes the page upright.
    public var rotation: Int
    /// The detector's confidence in that answer (for Tesseract's OSD: 10–31 on the sample
    /// pages, 3–7 on a few lines, under 2 on a blank page). Whether it is enough to turn the
    /// page is the detector's call (`OrientationDetector.shouldRotate(_:)`).
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
