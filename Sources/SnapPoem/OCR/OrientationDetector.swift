import Dispatch
import Foundation

/// Detects pages turned by 90°, 180° or 270° with Tesseract's `osd` model.
///
/// Owns one small Tesseract engine on a private serial queue, the only place it is touched:
/// calls from many tasks are safe and run one after another. Like `Recognizer`, create one
/// per worker for parallel work; `PoemScanner` owns one. The model (≈ 34 MB once loaded) is
/// loaded on the first `detect`, since most pages never need it; `init` only checks that
/// `osd.traineddata` is there.
public final class OrientationDetector: Sendable {
    private let queue: DispatchQueue
    private let engine: OrientationEngineBox
    /// Detections with a deadline given to the queue and not finished yet.
    private let pending = Locked(0)
    /// The tessdata folder holding `osd.traineddata`.
    public let tessdataDirectory: URL

    /// The lowest confidence at which a detected turn is applied. Chosen by measurement
    /// (`snap-poem-bench quality --orientation`, `Docs/image-pipeline.md`): on 18 preprocessed
    /// samples turned four ways OSD was right 72 times out of 72 with confidences of 3.5–31
    /// (3.5–3.7 for a screenshot with 8 short lines, 6.4–6.9 for 3 lines, 10–31 for pages);
    /// its only wrong answers came on a blank page, at 1.6–1.7. On text shrunk to an x-height
    /// of 8 px, below what automatic scaling produces, it gave wrong answers up to 4.3.
    public static let minimumConfidence = 3.0

    /// Finds the tessdata folder (resolved as for recognition) and checks that it holds the
    /// `osd` model.
    ///
    /// - Throws: `SnapPoemError.languageNotAvailable` naming `osd` when the folder lacks
    ///   `osd.traineddata`, or `.tessdataNotFound`.
    public init(tessdataDirectory: String? = nil) throws(SnapPoemError) {
        let tessdata = try TessdataLocation.resolve(explicit: tessdataDirectory)
        guard tessdata.availableLanguages.contains("osd") else {
            throw .languageNotAvailable(language: "osd", tessdata: tessdata.directory.path, available: tessdata.availableLanguages)
        }
        self.queue = DispatchQueue(label: "snap-poem.orientation", qos: .userInitiated)
        self.engine = OrientationEngineBox(tessdata: tessdata)
        self.tessdataDirectory = tessdata.directory
    }

    /// Detects how the page in `image` is turned (best on dark text on a light ground,
    /// letters 15–40 px tall). Returns nil when there is too little text to decide.
    ///
    /// - Throws: `SnapPoemError` when the model cannot be loaded or memory runs out
    ///   (`.engineInitializationFailed`, `.outOfMemory` named `SnapPoemError.unnamedImage`).
    ///   A failed load is tried again on the next call.
    public func detect(_ image: PoemImage) async throws(SnapPoemError) -> PageOrientation? {
        let engine = self.engine
        let result: Result<PageOrientation?, SnapPoemError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(SnapPoemError) {
                    continuation.resume(returning: .success(try engine.loaded().detect(image)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// What detection gave before a deadline.
    enum Detection: Sendable {
        /// Detection finished: the page's orientation, or nil when there was too little text.
        case finished(PageOrientation?)
        /// The deadline came first. The detection goes on on the detector's queue, so the next
        /// call starts after it, with the engine intact.
        case outOfTime
    }

    /// `detect(_:)`, waited for until `deadline` at most: Tesseract's orientation detection
    /// cannot be stopped (it has no progress monitor) and takes 0.2–0.5 s, so a scan with a
    /// time limit stops waiting for it instead of overrunning the limit by that much.
    ///
    /// - Throws: as `detect(_:)`, when detection finished with an error before the deadline.
    func detect(_ image: PoemImage, before deadline: ContinuousClock.Instant?) async throws(SnapPoemError) -> Detection {
        guard let deadline else { return .finished(try await detect(image)) }
        // At most a year, as for recognition: the conversion to nanoseconds cannot overflow.
        let left = min(ContinuousClock.now.duration(to: deadline), RecognitionControl.longestTimeLimit)
        guard left > .zero else { return .outOfTime }
        let engine = self.engine
        let pending = self.pending
        // Resumed once, by whichever comes first: the detection or the deadline.
        let waiting = Locked<CheckedContinuation<Result<Detection, SnapPoemError>, Never>?>(nil)
        let result: Result<Detection, SnapPoemError> = await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            pending.withLock { $0 += 1 }
            queue.async {
                defer { pending.withLock { $0 -= 1 } }
                let outcome: Result<Detection, SnapPoemError>
                do throws(SnapPoemError) {
                    outcome = .success(.finished(try engine.loaded().detect(image)))
                } catch {
                    outcome = .failure(error)
                }
                waiting.withLock { continuation in continuation.take() }?.resume(returning: outcome)
            }
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                waiting.withLock { continuation in continuation.take() }?.resume(returning: .success(.outOfTime))
            }
        }
        return try result.get()
    }

    /// Whether a detection whose caller stopped waiting at its deadline is still running.
    var isWorking: Bool { pending.withLock { $0 > 0 } }

    /// Returns once every detection given so far has finished, those whose callers stopped
    /// waiting included.
    func finishWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in queue.async { continuation.resume() } }
    }

    /// Whether `orientation` is a turn worth applying: not upright, and confident enough.
    public static func shouldRotate(_ orientation: PageOrientation) -> Bool {
        orientation.rotation != 0 && orientation.confidence >= minimumConfidence
    }
}

/// Holds the non-`Sendable` engine, created on first use. Touched only on the detector's
/// serial queue, which is what makes the `@unchecked Sendable` sound.
private final class OrientationEngineBox: @unchecked Sendable {
    private let tessdata: TessdataLocation
    private var engine: OrientationEngine?

    init(tessdata: TessdataLocation) { self.tessdata = tessdata }

    /// The engine, loading it on first use and again after a failed load or an engine left
    /// damaged by running out of memory.
    ///
    /// - Throws: `SnapPoemError` when it cannot be loaded.
    func loaded() throws(SnapPoemError) -> OrientationEngine {
        if let engine, !engine.isDamaged { return engine }
        engine = nil
        let started = try OrientationEngine(tessdataDirectory: tessdata.directory.path)
        engine = started
        return started
    }
}
