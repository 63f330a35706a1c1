import Dispatch
import Foundation
import Synchronization

/// Recognises images with one Tesseract engine that it owns, loaded once and reused.
///
/// The engine lives on this recognizer's private serial queue and is only ever touched there,
/// so calls from many tasks are safe and run one after another; for parallel work, create one
/// `Recognizer` per worker (each loads its own models, ≈ 40 MB and 0.2 s for `eng+fra`).
/// `recognize` suspends the caller without blocking Swift's cooperative threads.
public final class Recognizer: Sendable {
    private let queue: DispatchQueue
    private let engine: EngineBox
    /// Recognitions given to the engine and not finished.
    private let pending = Atomic<Int>(0)
    /// Whether the models' load has ended, however (set on the queue, with release ordering,
    /// after `EngineBox.startFailure`): `started()` then answers without queueing behind
    /// work the engine is still finishing.
    private let startEnded = Atomic<Bool>(false)
    /// The configuration the engine was started with.
    public let configuration: EngineConfiguration
    /// The tessdata folder in use.
    public let tessdataDirectory: URL

    /// Starts an engine (loads the models) on the recognizer's own queue.
    ///
    /// - Throws: `SnapPoemError` for missing tessdata or language data, unknown variables,
    ///   or a failed start.
    public convenience init(configuration: EngineConfiguration = EngineConfiguration()) async throws(SnapPoemError) {
        try self.init(startingWith: configuration)
        try await started()
    }

    /// Checks the tessdata folder and the languages at once, and loads the models on the
    /// recognizer's own queue in the background: work given to the recognizer meanwhile
    /// waits there for the models. `started()` says how the start went. For a caller with
    /// other work to do meanwhile (decoding and preparing the first image: `PoemScanner`).
    ///
    /// - Throws: `SnapPoemError.tessdataNotFound` or `.languageNotAvailable` when the files
    ///   are not there; what only loading finds (a damaged model, a bad variable) comes from
    ///   `started()`, and from every call given to the recognizer.
    init(startingWith configuration: EngineConfiguration) throws(SnapPoemError) {
        let tessdata = try TessdataLocation.resolve(explicit: configuration.tessdataDirectory)
        try tessdata.validate(configuration.languages)
        let queue = DispatchQueue(label: "snap-poem.recognizer", qos: .userInitiated)
        let box = EngineBox(configuration: configuration)
        self.queue = queue
        self.engine = box
        self.configuration = configuration
        self.tessdataDirectory = tessdata.directory
        queue.async { [self] in
            box.start()
            startEnded.store(true, ordering: .releasing)
        }
    }

    /// Returns once the models are loaded, or throws why they could not be. Once the load
    /// has ended this answers at once, even while the engine finishes an abandoned layout
    /// analysis (which can take minutes on a hostile image).
    ///
    /// - Throws: `SnapPoemError` as `init(configuration:)` does.
    func started() async throws(SnapPoemError) {
        let engine = self.engine
        if startEnded.load(ordering: .acquiring) {
            if let failure = engine.startFailure { throw failure }
            return
        }
        let failure: SnapPoemError? = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: engine.startFailure) }
        }
        if let failure { throw failure }
    }

    /// Returns once the engine has finished everything it was given: at once when it is idle,
    /// later when a recognition whose call already returned (a time limit, a cancellation)
    /// is still running. Whoever hands the engine to the next image waits here first, so
    /// that image never queues behind work nobody waits for any more.
    public func finishWork() async {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume() }
        }
    }

    /// Whether the engine is working now (perhaps on a recognition whose call already
    /// returned).
    public var isWorking: Bool { pending.load(ordering: .relaxed) > 0 }

    /// How long past its time limit, or after cancellation, a call waits for Tesseract to stop
    /// by itself before returning without it. Tesseract checks for a stop once per word while
    /// recognising (≈ 30 ms), but not during page layout analysis, which can take seconds on a
    /// large image; the call returns anyway, and the engine finishes that step in the
    /// background before it takes the next image.
    public static let stopGracePeriod: Duration = .milliseconds(150)

    /// Where time-limit and cancellation timers fire. A serial queue of its own gets its own
    /// thread, so a timer is never held up behind CPU work queued on Dispatch's global
    /// queues, which have only as many threads as the machine has cores.
    private static let timers = DispatchQueue(label: "snap-poem.recognizer.timers", qos: .userInteractive)

    /// Recognises `image`.
    ///
    /// The time limit bounds the whole call, layout analysis included: it returns at most
    /// `options.timeLimit + stopGracePeriod` after the engine takes the image (plus the time
    /// to copy the results out), whatever Tesseract is doing; an image queued behind another
    /// call on this recognizer waits for that call first. Cancelling the calling task returns within
    /// `stopGracePeriod` the same way.
    ///
    /// - Parameters:
    ///   - image: the image to read, usually prepared by `ImagePreprocessor`.
    ///   - options: page segmentation, resolution, time limit, renderings, region.
    ///   - name: how the image is named in errors (usually its path).
    ///   - progress: called with 0–100 from Tesseract's thread as lines are recognised.
    /// - Returns: the page, with `timedOut` set if `options.timeLimit` stopped it early; its
    ///   text is what was recognised by then (empty if layout analysis had not finished).
    /// - Throws: `SnapPoemError.cancelled` when the calling task is cancelled,
    ///   `.recognitionFailed` on an engine error.
    public func recognize(
        _ image: PoemImage,
        options: RecognitionOptions = RecognitionOptions(),
        name: String = "image",
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> RecognizedPage {
        let control = RecognitionControl(timeLimit: options.timeLimit, progress: progress)
        let engine = self.engine
        let result = await runBounded(
            name: name,
            started: {
                // The clock starts when the engine takes the image; the timer answers for it
                // if Tesseract is still in layout analysis at limit + grace.
                control.start()
                guard let limit = control.timeLimit else { return nil }
                let timedOut = RecognizedPage.timedOutBeforeText(
                    imageWidth: image.width, imageHeight: image.height, renderings: options.renderings,
                    dotsPerInch: options.dotsPerInch)
                return (limit, timedOut)
            },
            answered: { control.markAnswered() }, cancel: { control.cancel() }
        ) { () -> Result<RecognizedPage, SnapPoemError> in
            do throws(SnapPoemError) {
                return .success(try engine.usable().recognize(image, options: options, control: control, name: name))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension Recognizer {
    /// The text lines of `image` found by Tesseract's page layout analysis alone, in its
    /// reading order, without recognising them (`TessBaseAPIAnalyseLayout`).
    ///
    /// Layout analysis cannot be interrupted, so `deadline` and cancellation bound the call
    /// as they bound `recognize(_:options:name:progress:)`: it returns at most
    /// `stopGracePeriod` after either, and the engine finishes the analysis in the
    /// background (`isWorking`, `finishWork()`) before it takes the next image.
    ///
    /// - Returns: the lines, or nil when `deadline` passed first.
    /// - Throws: `SnapPoemError.cancelled` when the calling task was cancelled,
    ///   `.outOfMemory`, `.invalidOption` for a resolution outside 70–2400 dpi.
    public func layout(
        _ image: PoemImage, options: RecognitionOptions = RecognitionOptions(), deadline: ContinuousClock.Instant? = nil,
        name: String = "image"
    ) async throws(SnapPoemError) -> [LayoutLine]? {
        if Task.isCancelled { throw .cancelled(path: name) }
        let engine = self.engine
        let result = await runBounded(
            name: name,
            started: { () -> (Duration, [LayoutLine]?)? in
                guard let deadline else { return nil }
                return (max(.zero, ContinuousClock.now.duration(to: deadline)), nil)
            }
        ) { () -> Result<[LayoutLine]?, SnapPoemError> in
            do throws(SnapPoemError) {
                return .success(try engine.usable().analyseLayout(image, options: options, name: name))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Recognises each of `boxes` in `image` as one text line, in order, with word boxes in
    /// the whole image's pixels. Cancelling the calling task stops at the next line; at
    /// `deadline` the lines read so far are returned with `timedOut` set.
    ///
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    public func recognizeLines(
        _ image: PoemImage, boxes: [BoundingBox], options: RecognitionOptions = RecognitionOptions(),
        deadline: ContinuousClock.Instant? = nil, name: String = "image", progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> (lines: [RecognizedLine], timedOut: Bool) {
        // A queue of its own, read in order by this engine alone.
        let queue = LineQueue(boxes: boxes, leading: boxes.count) { _ in true }
        let timedOut = try await recognizeLines(
            image, from: queue, end: .top, options: options, deadline: deadline, name: name, progress: progress)
        return (queue.lines.prefix { $0 != nil }.compactMap { $0 }, timedOut)
    }
}

extension Recognizer {
    /// Reads the lines `lines` hands out from `end` (see `LineQueue`), delivering each to it,
    /// until none is left; the others sharing the queue read the rest at the same time.
    /// Cancelling the calling task stops at the next line; at `deadline` the reading stops.
    ///
    /// - Returns: whether the deadline stopped the reading.
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    func recognizeLines(
        _ image: PoemImage, from lines: LineQueue, end: LineQueue.End, options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String, progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> Bool {
        let limit = deadline.map { ContinuousClock.now.duration(to: $0) }.map { max($0, .zero) }
        let control = RecognitionControl(timeLimit: limit, progress: progress)
        let engine = self.engine
        let result: Result<Bool, SnapPoemError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    control.start()
                    do throws(SnapPoemError) {
                        let stopped = try engine.usable().recognizeLines(
                            image, from: lines, end: end, options: options, control: control, name: name)
                        continuation.resume(returning: .success(stopped))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                    control.markAnswered()
                }
            }
        } onCancel: {
            control.cancel()
        }
        return try result.get()
    }
}

extension Recognizer {
    /// Runs `work` on the engine's queue and hands back the first of: its result; the value
    /// `started` gives, at its limit plus `stopGracePeriod` after the engine took the work;
    /// `.cancelled`, `stopGracePeriod` after the calling task is cancelled. The engine
    /// finishes `work` in the background either way, counted by `isWorking` until it has.
    ///
    /// - Parameters:
    ///   - name: how the image is named in a cancellation.
    ///   - started: called on the engine's queue as the work starts: the time it may take and
    ///     what to answer when it takes longer, or nil for no limit.
    ///   - answered: called once the caller has its answer, whichever it is.
    ///   - cancel: called when the calling task is cancelled, to ask the work to stop.
    ///   - work: the engine's work.
    fileprivate func runBounded<Value: Sendable>(
        name: String, started: @escaping @Sendable () -> (Duration, Value)?, answered: @escaping @Sendable () -> Void = {},
        cancel: @escaping @Sendable () -> Void = {}, work: @escaping @Sendable () -> Result<Value, SnapPoemError>
    ) async -> Result<Value, SnapPoemError> {
        let gate = ResultGate<Value>()
        let grace = Self.stopGracePeriod
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                gate.install(continuation)
                self.pending.add(1, ordering: .relaxed)
                queue.async {
                    // Work whose caller was answered while it queued (cancelled), or whose
                    // time is up before it starts, is not done at all.
                    let start = gate.isAnswered ? nil : started()
                    if gate.isAnswered || start.map({ $0.0 <= .zero }) == true {
                        if let (_, early) = start { gate.resume(with: .success(early)) }
                        answered()
                        self.pending.subtract(1, ordering: .relaxed)
                        return
                    }
                    if let (limit, early) = start {
                        Self.timers.asyncAfter(deadline: .now() + (limit + grace).dispatchInterval) {
                            answered()
                            gate.resume(with: .success(early))
                        }
                    }
                    let outcome = work()
                    answered()
                    // Idle before the caller resumes, so that it can hand the engine on at once.
                    self.pending.subtract(1, ordering: .relaxed)
                    gate.resume(with: outcome)
                }
            }
        } onCancel: {
            cancel()
            Self.timers.asyncAfter(deadline: .now() + grace.dispatchInterval) {
                answered()
                gate.resume(with: .failure(.cancelled(path: name)))
            }
        }
    }
}

/// Hands one result to one waiting continuation, whichever comes first: the engine's answer,
/// the time limit, or cancellation. Later results are dropped.
private final class ResultGate<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Value, SnapPoemError>, Never>?
        var early: Result<Value, SnapPoemError>?
        var done = false
    }
    private let state = Locked(State())

    func install(_ continuation: CheckedContinuation<Result<Value, SnapPoemError>, Never>) {
        let early = state.withLock { state -> Result<Value, SnapPoemError>? in
            if let early = state.early {
                state.early = nil
                state.done = true
                return early
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Whether a result was handed over (or is held for the continuation to come).
    var isAnswered: Bool { state.withLock { $0.done || $0.early != nil } }

    func resume(with result: Result<Value, SnapPoemError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<Value, SnapPoemError>, Never>? in
            guard !state.done else { return nil }
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.continuation = nil
            state.done = true
            return continuation
        }
        continuation?.resume(returning: result)
    }
}

extension Duration {
    /// The duration as a Dispatch interval, in nanoseconds.
    var dispatchInterval: DispatchTimeInterval {
        let (nanoseconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .never }
        return .nanoseconds(Int(clamping: nanoseconds + components.attoseconds / 1_000_000_000))
    }
}

/// Carries the non-`Sendable` engine to the recognizer's queue, the only place it is used
/// (which is what makes the `@unchecked Sendable` sound): `start()` runs there first, before
/// any work.
private final class EngineBox: @unchecked Sendable {
    private let configuration: EngineConfiguration
    private var engine: TesseractEngine?
    /// Why the first start failed, if it did: every call given to the recognizer fails with it.
    private(set) var startFailure: SnapPoemError?

    init(configuration: EngineConfiguration) { self.configuration = configuration }

    /// Loads the models.
    func start() {
        do throws(SnapPoemError) {
            engine = try TesseractEngine(configuration: configuration)
        } catch {
            startFailure = error
        }
    }

    /// The engine, replaced by a freshly started one first if the last recognition left it
    /// damaged (memory ran out inside Tesseract).
    ///
    /// - Throws: the start's failure; `SnapPoemError` when the replacement cannot start.
    func usable() throws(SnapPoemError) -> TesseractEngine {
        if let startFailure { throw startFailure }
        if let engine, !engine.isDamaged { return engine }
        let replacement = try TesseractEngine(configuration: configuration)
        engine = replacement
        return replacement
    }
}
