/// Preprocessing for the scanner, and orientation detection, run only when a page reads badly.
///
/// Tesseract's OSD costs 0.3–0.5 s an image whatever its size (it classifies up to a few
/// hundred blobs in four orientations), 15–30 % of a recognition: too much to pay on every
/// upright page. A page read upside down or turned the wrong way comes out as garbage with a
/// mean word confidence near 48, while upright pages, even poor photos, score 85–96. So the
/// scanner reads first and asks OSD only when the confidence is under
/// `PoemScanner.doubtfulConfidence`; when OSD then finds a confident turn, it reads the
/// turned page too and keeps the reading with the higher confidence.
extension PoemScanner {
    /// The mean word confidence under which a reading is suspected to come from a turned
    /// page (measured: 47–48 for pages turned 180° or 270°, 85–96 for upright ones).
    public static let doubtfulConfidence = 70

    /// The image steps before recognition up to the curvature step: the page turned and
    /// deskewed (`ImagePreprocessor.levelled`), for `ImagePreprocessor.shaped` to finish. With
    /// a region of interest (given in the upright image's pixels) only a change of scale can
    /// be mapped onto the region, so the page is then neither turned, deskewed, dewarped nor
    /// keystone-corrected.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` naming `name` when Leptonica cannot allocate.
    func preprocessLevelled(
        _ image: PoemImage, options: PreprocessingOptions, name: String
    ) async throws(SnapPoemError) -> (ImagePreprocessor.Stage, ImagePreprocessor.Levelled) {
        let needed = MemoryHeadroom.preprocessingBytes(width: image.width, height: image.height)
        guard MemoryHeadroom.isAvailable(needed) else {
            throw .outOfMemory(
                path: name, stage: "preparing the \(image.width)×\(image.height) image (it needs about \(needed >> 20) MiB more)")
        }
        var options = options
        if configuration.recognition.regionOfInterest != nil {
            options.detectsOrientation = false
            options.deskews = false
            options.dewarps = false
            options.correctsKeystone = false
        }
        do throws(SnapPoemError) {
            let stage = try await offload { [options] () throws(SnapPoemError) in try ImagePreprocessor.start(image, options: options) }
            let levelled = try await offload { () throws(SnapPoemError) in
                try ImagePreprocessor.levelled(stage, turn: nil, applying: false)
            }
            return (stage, levelled)
        } catch {
            throw error.naming(name)
        }
    }

    /// What trying the other orientation gave.
    struct OrientationRetry {
        /// The turned page's preparation and reading, when they beat the first reading.
        var better: (prepared: PreparedImage, page: RecognizedPage, reading: ReadingReport?)?
        /// The first preparation's report, with what orientation detection said.
        var report: PreprocessingReport
        /// Time spent detecting and re-preparing.
        var preprocessTime: Duration = .zero
        /// Time spent on the second recognition.
        var recognizeTime: Duration = .zero
        /// Whether the time limit came before orientation detection, or the turned page's
        /// reading, finished: the page could not be checked, so its reading is one the limit
        /// cut short.
        var outOfTime = false
    }

    /// Detects the orientation of a page that read badly and, if it is confidently turned,
    /// reads it turned upright. When detection cannot run (its model does not load, memory
    /// runs out), the first reading stands and the report's notes say why.
    ///
    /// A page whose lines lie level but whose first lines read badly (`stopped` is
    /// `.doubtfulStart`) is first read upside down, and a page whose lines stand on end
    /// (`.verticalLines`) first turned the way its lines' starts suggest (`lineStartTurn`,
    /// `PageReading.turnFromLineStarts`), each by `readTurned`; orientation detection is
    /// asked only when that reads no better.
    ///
    /// - Returns: nil when the first reading was good enough (or detection is off).
    func retryIfTurned(
        stage: ImagePreprocessor.Stage,
        first: PreparedImage,
        page: RecognizedPage,
        stopped: ReadingReport.EarlyStop?,
        lineStartTurn: Int? = nil,
        recognition: RecognitionOptions,
        deadline: ContinuousClock.Instant?,
        name: String,
        progress: (@Sendable (Int) -> Void)?
    ) async throws(SnapPoemError) -> OrientationRetry? {
        guard stage.options.detectsOrientation, let orientationDetector, !page.timedOut,
            !page.hasText || page.visibleWordConfidence < Self.doubtfulConfidence
        else { return nil }
        let clock = ContinuousClock()
        var retry = OrientationRetry(better: nil, report: first.report)
        let guess: Int? =
            switch stopped {
            case .doubtfulStart: 180
            case .verticalLines: lineStartTurn
            case nil: nil
            }
        if let guess {
            let tried = try await readTurned(
                by: guess, stage: stage, page: page, recognition: recognition, deadline: deadline, name: name, progress: progress)
            retry.preprocessTime += tried.preprocessTime
            retry.recognizeTime += tried.recognizeTime
            if let better = tried.better {
                retry.better = better
                return retry
            }
            if deadline.map({ clock.now >= $0 }) == true {
                retry.report.notes.append(
                    guess == 180
                        ? "the time limit ended while the page was read upside down; the page was read as it is"
                        : "the time limit ended while the page was read turned \(guess)°; the page was read as it is")
                retry.outOfTime = true
                return retry
            }
        }
        let start = clock.now
        let detected: PageOrientation?
        do throws(SnapPoemError) {
            // The time limit holds for orientation detection too: it is waited for until the
            // deadline at most.
            switch try await orientationDetector.detect(stage.prepared.image, before: deadline) {
            case .finished(let orientation):
                detected = orientation
            case .outOfTime:
                retry.report.notes.append("the time limit ended before orientation detection could finish; the page was read as it is")
                retry.outOfTime = true
                retry.preprocessTime += clock.now - start
                return retry
            }
        } catch {
            retry.report.notes.append("orientation detection could not run (\(error.naming(name).description))")
            retry.preprocessTime += clock.now - start
            return retry
        }
        guard let turn = detected else {
            retry.preprocessTime += clock.now - start
            return retry
        }
        retry.report.orientationConfidence = turn.confidence
        guard OrientationDetector.shouldRotate(turn) else {
            retry.preprocessTime += clock.now - start
            return retry
        }
        let turned: PreparedImage
        do throws(SnapPoemError) {
            turned = try await offload { () throws(SnapPoemError) in try ImagePreprocessor.finish(stage, turn: turn, applying: true) }
        } catch {
            throw error.naming(name)
        }
        retry.preprocessTime += clock.now - start
        if Task.isCancelled { throw .cancelled(path: name) }
        guard
            try await isWithinMarkBound(
                turned.image, limit: recognition.markLimit, region: recognition.regionOfInterest, name: name)
        else {
            retry.report.notes.append(
                "orientation detection suggested turning \(turn.rotation)°, but the turned page has too many marks to read; kept as it was")
            return retry
        }
        // The time limit holds for the whole scan: the second reading gets what is left of it.
        var recognition = recognition
        if let deadline {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                retry.report.notes.append(
                    "orientation detection suggested turning \(turn.rotation)°, but the time limit left no time to read the page again")
                retry.outOfTime = true
                return retry
            }
            recognition.timeLimit = left
        }
        let recognizeStart = clock.now
        // The turned page, too, stops after its first lines when they read badly: a texture
        // that detection took for text (a screen's pixel grid) is not read to the end turned,
        // before the page is read to the end as it is. An inverted page is read by Tesseract's
        // page recognition, turned or not (as `scan` reads it), and so is not stopped early.
        let (second, reading) = try await read(
            turned.image, options: recognition, deadline: deadline, name: name, progress: progress,
            doubtfulConfidence: Self.doubtfulConfidence, byPage: turned.report.inverted,
            layoutReduction: turned.report.lineFindingReduction)
        retry.recognizeTime += clock.now - recognizeStart
        if reading?.stoppedEarly != nil {
            retry.report.notes.append(
                "orientation detection suggested turning \(turn.rotation)°, but the turned page's first lines read badly too; kept as it was"
            )
        } else if !second.timedOut, second.hasText && (!page.hasText || second.visibleWordConfidence > page.visibleWordConfidence) {
            retry.better = (turned, second, reading)
        } else if second.timedOut {
            retry.outOfTime = true
            retry.report.notes.append(
                "orientation detection suggested turning \(turn.rotation)°, but the time limit ended the turned page's reading; kept as it was"
            )
        } else {
            retry.report.notes.append(
                "orientation detection suggested turning \(turn.rotation)°, but the turned page read worse (confidence \(second.visibleWordConfidence) against \(page.visibleWordConfidence)); kept as it was"
            )
        }
        return retry
    }

    /// Whether `image` (or its part inside `region`) is within the mark bound `limit`
    /// (`PageMarks`): a page over it is not worth a second reading.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` naming `name`.
    func isWithinMarkBound(_ image: PoemImage, limit: Int?, region: BoundingBox?, name: String) async throws(SnapPoemError) -> Bool {
        try await offload { () throws(SnapPoemError) in
            try PageMarks.marksOverLimit(image, region: region, limit: limit, name: name) == nil
        }
    }

    /// Reads a page turned by `rotation` degrees clockwise, stopping after its first lines
    /// when they too read badly. Kept when it reads to the end with a mean word confidence
    /// of at least `doubtfulConfidence`, above the first reading's.
    ///
    /// Why before orientation detection: a page whose lines lie level (no `verticalLines`
    /// stop) but whose first lines read as garbage is, on the samples and the held-out set,
    /// upside down (180) whenever it is turned at all; a page whose lines stand on end is
    /// turned the way the aligned starts of its lines say (90 or 270). Turning it costs a
    /// deskew and a reading that has to be made anyway, while orientation detection costs
    /// 0.2–0.3 s on top (BENCHMARKS.md); a page the guess does not fit pays the first lines of
    /// the turned reading (about 0.1–0.2 s) before detection is asked as before.
    func readTurned(
        by rotation: Int,
        stage: ImagePreprocessor.Stage,
        page: RecognizedPage,
        recognition: RecognitionOptions,
        deadline: ContinuousClock.Instant?,
        name: String,
        progress: (@Sendable (Int) -> Void)?
    ) async throws(SnapPoemError) -> OrientationRetry {
        let clock = ContinuousClock()
        let start = clock.now
        var tried = OrientationRetry(better: nil, report: stage.prepared.report)
        var turned: PreparedImage
        do throws(SnapPoemError) {
            turned = try await offload { () throws(SnapPoemError) in
                try ImagePreprocessor.finish(stage, turn: PageOrientation(rotation: rotation, confidence: 0), applying: true)
            }
        } catch {
            throw error.naming(name)
        }
        // Turned on the strength of this reading, not by orientation detection: no OSD confidence.
        turned.report.orientationConfidence = nil
        tried.preprocessTime = clock.now - start
        if Task.isCancelled { throw .cancelled(path: name) }
        var recognition = recognition
        if let deadline {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return tried }
            recognition.timeLimit = left
        }
        // The turned page meets the mark bound as the first one did: a page that was read as
        // it is, or cleaned of noise, because its prepared page was over the bound is not read
        // again from that prepared page (layout analysis of a screen photo's 119,052 marks
        // took minutes).
        guard
            try await isWithinMarkBound(
                turned.image, limit: recognition.markLimit, region: recognition.regionOfInterest, name: name)
        else { return tried }
        let recognizeStart = clock.now
        let (second, reading) = try await read(
            turned.image, options: recognition, deadline: deadline, name: name, progress: progress,
            doubtfulConfidence: Self.doubtfulConfidence, byPage: turned.report.inverted,
            layoutReduction: turned.report.lineFindingReduction)
        tried.recognizeTime = clock.now - recognizeStart
        if reading?.stoppedEarly == nil, !second.timedOut, second.hasText,
            second.visibleWordConfidence >= Self.doubtfulConfidence, second.visibleWordConfidence > page.visibleWordConfidence
        {
            tried.better = (turned, second, reading)
        }
        return tried
    }
}

/// The curvature step during layout analysis: with two engines for one image, the first
/// reading does not wait for the curvature measurement (`ImagePreprocessor.curved`, 15–135 ms
/// a page here) before analysing the layout; it measures on a Dispatch thread while the
/// primary engine analyses the page as it is, which is the page to read when it is found flat
/// (most pages are).
extension PoemScanner {
    /// Whether the first reading of `levelled` overlaps the curvature step with layout
    /// analysis: the configuration reads one image with two engines (a second core is
    /// there for it), line by line (`PageReading`, which takes a layout analysis made
    /// before), with no time limit, the page is measured for curvature, it was not inverted
    /// (an inverted page is read by Tesseract's page recognition) and no region of interest
    /// is set. Under a time limit the steps stay one after the other: the curvature step
    /// cannot be stopped, so inside the limit's window it could hold the answer past the
    /// limit, and outlive it with the image's memory (the service's bound on memory counts
    /// a request's image only until its answer).
    func overlapsCurvatureStep(_ levelled: ImagePreprocessor.Levelled) -> Bool {
        engines.count > 1 && configuration.readsByLine && PageReading.applies(to: configuration.recognition)
            && configuration.recognition.timeLimit == nil && levelled.options.dewarps && !levelled.prepared.report.inverted
            && configuration.recognition.regionOfInterest == nil
    }

    /// Measures the curvature of `levelled` (`ImagePreprocessor.curved`) on a Dispatch thread
    /// while the primary engine analyses the layout of `flat`, the same page finished as if
    /// flat (`ImagePreprocessor.assumedFlat`). A flat page is `flat` with its curvature
    /// recorded (the last tone step is done once). A page found curled does not wait for that
    /// analysis, which Tesseract cannot stop: it gets its last tone step, its marks are counted
    /// (`PageMarks`) and its layout analysed by the second engine, idle until the lines are
    /// read, while the primary one finishes the analysis of the page as it was.
    ///
    /// - Returns: the prepared page (whose image is `flat`'s when the page was found flat) and
    ///   its layout analysis.
    /// - Throws: `SnapPoemError` from either step, naming `name`.
    func shapedDuringLayout(
        _ levelled: ImagePreprocessor.Levelled, flat: PreparedImage, options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (prepared: PreparedImage, layout: LayoutAnalysis) {
        let reading = PageReading(engines: engines, choosesLanguage: configuration.choosesLanguage)
        // Not a child task: a curled page goes on without waiting for it.
        let early = Task { () -> Result<LayoutAnalysis, SnapPoemError> in
            do throws(SnapPoemError) {
                return .success(
                    try await reading.layout(
                        flat.image, reduction: flat.report.lineFindingReduction, options: options, deadline: deadline, name: name))
            } catch {
                return .failure(error)
            }
        }
        let curved: ImagePreprocessor.Levelled
        do throws(SnapPoemError) {
            curved = try await offload { () throws(SnapPoemError) in try ImagePreprocessor.curved(levelled) }
        } catch {
            early.cancel()
            throw error.naming(name)
        }
        guard curved.prepared.report.curvature?.applied == true else {
            let layout = await withTaskCancellationHandler {
                await early.value
            } onCancel: {
                early.cancel()
            }
            var prepared = flat
            prepared.report.curvature = curved.prepared.report.curvature
            return (prepared, try layout.get())
        }
        early.cancel()
        let shaped: PreparedImage
        do throws(SnapPoemError) {
            shaped = try await offload { () throws(SnapPoemError) in try ImagePreprocessor.toned(curved) }
        } catch {
            throw error.naming(name)
        }
        let flattened = shaped.image
        try await offload { () throws(SnapPoemError) in
            try PageMarks.check(flattened, region: nil, limit: options.markLimit, name: name)
        }
        let engine = await engines.workers().last ?? engines.primary
        let layout = try await reading.layout(
            flattened, reduction: shaped.report.lineFindingReduction, options: options, deadline: deadline, name: name, engine: engine)
        return (shaped, layout)
    }
}
