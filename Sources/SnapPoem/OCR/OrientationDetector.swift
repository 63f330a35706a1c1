import Dispatch
import Foundation

/// How a page lies, as Tesseract's orientation detection (OSD) sees it.
public struct PageOrientation: Sendable, Equatable, Codable {
    /// The clockwise turn, in degrees (0, 90, 180 or 270), that makes the page upright.
    public var rotation: Int
    /// Tesseract's confidence in that answer: 10–31 on the sample pages, 3–7 on a few lines,
    /// under 2 on a blank page. snap-poem turns a page only at
    /// `OrientationDetector.minimumConfidence` or more.
    public var confidence: Double
    /// The writing system found, e.g. "Latin", when Tesseract names one.
    public var script: String?
    /// Tesseract's confidence in `script`.
    public var scriptConfidence: Double

    /// Creates an orientation record.
    public init(rotation: Int, confidence: Double, script: String? = nil, scriptConfidence: Double = 0) {
        self.rotation = rotation
        self.confidence = confidence
        self.script = script
        self.scriptConfidence = scriptConfidence
    }
}

/// Detects pages turned by 90°, 180° or 270° with Tesseract's `osd` model.
///
/// Owns one small Tesseract engine (≈ 10 MB, loaded once) on a private serial queue, the only
/// place it is touched: calls from many tasks are safe and run one after another. Like
/// `Recognizer`, create one per worker for parallel work; `PoemScanner` owns one.
public final class OrientationDetector: Sendable {
    private let queue: DispatchQueue
    private let engine: OrientationEngineBox
    /// The tessdata folder `osd.traineddata` came from.
    public let tessdataDirectory: URL

    /// The lowest confidence at which a detected turn is applied. Chosen by measurement
    /// (`snap-poem-bench quality --orientation`, `Docs/image-pipeline.md`): on 18 preprocessed
    /// samples turned four ways OSD was right 72 times out of 72 with confidences of 3.5–31
    /// (3.5–3.7 for a screenshot with 8 short lines, 6.4–6.9 for 3 lines, 10–31 for pages);
    /// its only wrong answers came on a blank page, at 1.6–1.7. On text shrunk to an x-height
    /// of 8 px, below what automatic scaling produces, it gave wrong answers up to 4.3.
    public static let minimumConfidence = 3.0

    /// Loads the `osd` model from the tessdata folder (resolved as for recognition).
    ///
    /// - Throws: `SnapPoemError.languageNotAvailable` naming `osd` when the folder lacks
    ///   `osd.traineddata`, `.tessdataNotFound`, or `.engineInitializationFailed`.
    public init(tessdataDirectory: String? = nil) async throws(SnapPoemError) {
        let queue = DispatchQueue(label: "snap-poem.orientation", qos: .userInitiated)
        let result: Result<OrientationEngineBox, SnapPoemError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(SnapPoemError) {
                    continuation.resume(returning: .success(OrientationEngineBox(try OrientationEngine(tessdataDirectory: tessdataDirectory))))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        let box = try result.get()
        self.queue = queue
        self.engine = box
        self.tessdataDirectory = box.engine.tessdata.directory
    }

    /// Detects how the page in `image` is turned (best on dark text on a light ground,
    /// letters 15–40 px tall). Returns nil when there is too little text to decide.
    public func detect(_ image: PoemImage) async -> PageOrientation? {
        let engine = self.engine
        return await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: engine.engine.detect(image))
            }
        }
    }

    /// Whether `orientation` is a turn worth applying: not upright, and confident enough.
    public static func shouldRotate(_ orientation: PageOrientation) -> Bool {
        orientation.rotation != 0 && orientation.confidence >= minimumConfidence
    }
}

/// Carries the non-`Sendable` engine to the detector's queue, the only place it is used.
private final class OrientationEngineBox: @unchecked Sendable {
    let engine: OrientationEngine
    init(_ engine: OrientationEngine) { self.engine = engine }
}
