import Dispatch
import Foundation

/// Recognises images with one Tesseract engine that it owns, loaded once and reused.
///
/// The engine lives on this recognizer's private serial queue and is only ever touched there,
/// so calls from many tasks are safe and run one after another; for parallel work, create one
/// `Recognizer` per worker (each loads its own models, ≈ 40 MB and 0.2 s for `eng+fra`).
/// `recognize` suspends the caller without blocking Swift's cooperative threads.
public final class Recognizer: Sendable {
    private let queue: DispatchQueue
    private let engine: EngineBox
    /// The configuration the engine was started with.
    public let configuration: EngineConfiguration
    /// The tessdata folder in use.
    public let tessdataDirectory: URL

    /// Starts an engine (loads the models) on the recognizer's own queue.
    ///
    /// - Throws: `SnapPoemError` for missing tessdata or language data, unknown variables,
    ///   or a failed start.
    public init(configuration: EngineConfiguration = EngineConfiguration()) async throws(SnapPoemError) {
        let queue = DispatchQueue(label: "snap-poem.recognizer", qos: .userInitiated)
        let result: Result<EngineBox, SnapPoemError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(SnapPoemError) {
                    continuation.resume(returning: .success(EngineBox(try TesseractEngine(configuration: configuration))))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        let box = try result.get()
        self.queue = queue
        self.engine = box
        self.configuration = configuration
        self.tessdataDirectory = box.engine.tessdata.directory
    }

    /// Recognises `image`.
    ///
    /// - Parameters:
    ///   - name: how the image is named in errors (usually its path).
    ///   - progress: called with 0–100 from Tesseract's thread as lines are recognised.
    /// - Returns: the page, with `timedOut` set if `options.timeLimit` stopped it early.
    /// - Throws: `SnapPoemError.cancelled` when the calling task is cancelled (recognition
    ///   stops at Tesseract's next check), `.recognitionFailed` on an engine error.
    public func recognize(
        _ image: PoemImage,
        options: RecognitionOptions = RecognitionOptions(),
        name: String = "image",
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> RecognizedPage {
        let deadline = options.timeLimit.map { ContinuousClock.now.advanced(by: $0) }
        let control = RecognitionControl(deadline: deadline, progress: progress)
        let engine = self.engine
        let result: Result<RecognizedPage, SnapPoemError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    do throws(SnapPoemError) {
                        let page = try engine.engine.recognize(image, options: options, control: control, name: name)
                        continuation.resume(returning: .success(page))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            control.cancel()
        }
        return try result.get()
    }
}

/// Carries the non-`Sendable` engine to the recognizer's queue, the only place it is used.
private final class EngineBox: @unchecked Sendable {
    let engine: TesseractEngine
    init(_ engine: TesseractEngine) { self.engine = engine }
}
