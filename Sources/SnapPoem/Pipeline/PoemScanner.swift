import Foundation

/// The whole pipeline: image file → decoded image → preprocessed image → recognised page →
/// personalised poem.
///
/// A scanner owns one `Recognizer` (one Tesseract engine, models loaded once) and reuses it
/// for every scan. It is `Sendable`; scans through one scanner run one at a time, so for
/// parallel batches create one scanner per worker.
public final class PoemScanner: Sendable {
    /// What every scan does.
    public let configuration: ScanConfiguration
    /// The engine this scanner recognises with.
    public let recognizer: Recognizer
    /// The orientation detector (Tesseract's `osd` model), when the configuration asks for
    /// orientation detection; see `PoemScanner+Preprocessing.swift`.
    public let orientationDetector: OrientationDetector?
    /// The engines that read a page line by line: `recognizer`, a second one, French ones.
    let engines: ReadingEngines

    /// Whether any of this scanner's engines (`recognizer`, those that read a page line by
    /// line, the orientation detector) is still working, perhaps on a recognition or a
    /// detection whose call already returned at its time limit or on cancellation.
    public var isWorking: Bool { engines.isWorking || orientationDetector?.isWorking == true }

    /// Returns once the scanner's own engine has loaded its models.
    ///
    /// - Throws: `SnapPoemError` when they could not load (a damaged model, a bad variable).
    func engineStarted() async throws(SnapPoemError) { try await recognizer.started() }

    /// Returns once every engine of this scanner has finished what it was given: after it,
    /// no Tesseract call of an earlier scan is still running.
    public func finishWork() async {
        await engines.finishWork()
        await orientationDetector?.finishWork()
    }

    /// Returns once none of this scanner's engines is still loading its models (the scanner's
    /// own, when it started with `init(startingWith:)`, and those that load in the background):
    /// what an owner waits for before it lets go of the scanner and its process exits, so that
    /// an engine is never left half-loaded, holding memory nothing frees (a refused first
    /// image can end a run within milliseconds). Never waits for a recognition, which may be
    /// a layout analysis of minutes that a time limit gave up on (`finishWork()` does).
    public func finishLoading() async {
        try? await engineStarted()
        await engines.finishLoading()
    }

    /// Starts the engine for `configuration`.
    ///
    /// - Throws: `SnapPoemError` when the tessdata or a language is missing, or Tesseract
    ///   cannot start.
    public convenience init(configuration: ScanConfiguration = ScanConfiguration()) async throws(SnapPoemError) {
        try await self.init(configuration: configuration, sharingOrientationDetectorWith: nil)
    }

    /// A scanner with engines of its own for `configuration` that shares `other`'s
    /// orientation detector (when both use the same tessdata folder), so that the `osd` model
    /// is loaded once for the two: for front ends that keep scanners for several language
    /// sets side by side and use one at a time.
    ///
    /// - Throws: `SnapPoemError` as `init(configuration:)` does.
    public convenience init(
        configuration: ScanConfiguration, sharingOrientationDetectorWith other: PoemScanner?
    ) async throws(SnapPoemError) {
        try self.init(startingWith: configuration, sharingOrientationDetectorWith: other)
        try await engineStarted()
    }

    /// A scanner whose engine loads its models in the background while the caller goes on:
    /// the first image can be decoded and prepared meanwhile (its recognition waits for the
    /// models). The files are checked at once; `engineStarted()` says whether the models
    /// loaded, and every scan fails with the same error when they did not.
    ///
    /// - Throws: `SnapPoemError.tessdataNotFound`, `.languageNotAvailable` (the `osd` model
    ///   included, when orientation detection is asked for).
    init(startingWith configuration: ScanConfiguration, sharingOrientationDetectorWith other: PoemScanner? = nil) throws(SnapPoemError) {
        self.configuration = configuration
        let recognizer = try Recognizer(startingWith: configuration.engine)
        self.recognizer = recognizer
        self.engines = ReadingEngines(
            primary: recognizer, count: configuration.readsByLine ? configuration.recognitionEngines : 1,
            choosesLanguage: configuration.choosesLanguage)
        if !configuration.preprocessing.detectsOrientation {
            self.orientationDetector = nil
        } else if let shared = other?.orientationDetector,
            other?.configuration.engine.tessdataDirectory == configuration.engine.tessdataDirectory
        {
            self.orientationDetector = shared
        } else {
            self.orientationDetector = try OrientationDetector(tessdataDirectory: configuration.engine.tessdataDirectory)
        }
    }

    /// A scanner with another configuration that shares `other`'s engines, so no models are
    /// loaded: for front ends whose requests differ in preprocessing, recognition options or
    /// replacements, but not in the engine. Scans through the two scanners queue up on the
    /// shared engines, as scans through one scanner do.
    ///
    /// - Throws: `SnapPoemError.invalidOption` when `configuration.engine` differs from
    ///   `other`'s; `.languageNotAvailable` when orientation detection is asked for, `other`
    ///   has none, and the tessdata folder lacks `osd`.
    public init(configuration: ScanConfiguration, sharingEnginesWith other: PoemScanner) throws(SnapPoemError) {
        guard configuration.engine == other.configuration.engine else {
            throw .invalidOption(
                option: "ScanConfiguration.engine",
                reason: "a scanner can share the engines only of a scanner with the same engine settings")
        }
        self.configuration = configuration
        self.recognizer = other.recognizer
        self.engines = other.engines
        if configuration.preprocessing.detectsOrientation, other.orientationDetector == nil {
            self.orientationDetector = try OrientationDetector(tessdataDirectory: configuration.engine.tessdataDirectory)
        } else {
            self.orientationDetector = other.orientationDetector
        }
    }

    /// Reads the poem in the image file at `path` (`"-"` for standard input).
    ///
    /// - Parameters:
    ///   - path: the image file, or `"-"` to read standard input.
    ///   - progress: recognition progress 0–100, called from another thread.
    /// - Returns: the recognised and personalised poem; check `page.timedOut` when a time
    ///   limit is set.
    /// - Throws: `SnapPoemError` naming `path`: unreadable, not an image, too large,
    ///   cancelled, or failed recognition.
    public func scan(
        fileAt path: String,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        let clock = ContinuousClock()
        let limits = configuration.imageLimits
        let decodeStart = clock.now
        // Reading standard input can wait for ever; cancelling the task stops the wait.
        let (image, facts) = try await offloadStoppable { stop throws(SnapPoemError) in
            try ImageDecoder.decode(fileAt: path, limits: limits, shouldStop: { stop.isRaised })
        }
        let decodeTime = clock.now - decodeStart
        // Errors name standard input "<stdin>", as the decoder's do; the result keeps "-".
        let name = path == "-" ? "<stdin>" : path
        var poem = try await scan(image, facts: facts, name: name, decodeTime: decodeTime, progress: progress)
        poem.source = path
        return poem
    }

    /// Reads the poem in an already decoded image.
    ///
    /// - Parameters:
    ///   - image: the decoded image, e.g. from `ImageDecoder`.
    ///   - facts: what is known of the image's file; defaults describe the image as it is.
    ///   - name: how the image is named in errors and results.
    ///   - progress: recognition progress 0–100, called from another thread.
    /// - Throws: `SnapPoemError` as for `scan(fileAt:progress:)`.
    public func scan(
        _ image: PoemImage,
        facts: ImageFacts? = nil,
        name: String = "image",
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(SnapPoemError) -> ScannedPoem {
        try await scan(image, facts: facts, name: name, decodeTime: .zero, progress: progress)
    }

    /// The pipeline after decoding; `decodeTime` is carried into the timings.
    private func scan(
        _ image: PoemImage,
        facts: ImageFacts?,
        name: String,
        decodeTime: Duration,
        progress: (@Sendable (Int) -> Void)?
    ) async throws(SnapPoemError) -> ScannedPoem {
        if Task.isCancelled { throw .cancelled(path: name) }
        // A region is judged in the numbers given, against the image they were given for,
        // before any work (further on it is clipped and scaled to the prepared image).
        if let region = configuration.recognition.regionOfInterest, image.width > 0, image.height > 0,
            region.left >= image.width || region.top >= image.height || region.right <= 0 || region.bottom <= 0
        {
            throw .regionOutsideImage(
                path: name, x: region.left, y: region.top, width: region.width, height: region.height, imageWidth: image.width,
                imageHeight: image.height)
        }
        let clock = ContinuousClock()
        let options = configuration.preprocessing
        let preprocessStart = clock.now
        let (stage, levelled) = try await preprocessLevelled(image, options: options, name: name)
        // With two engines for one image and no time limit, the curvature step runs while
        // layout analysis does (`shapedDuringLayout`): until then the page is taken to be flat.
        var overlapsCurvature = overlapsCurvatureStep(levelled)
        var preparation: PreparedImage
        do throws(SnapPoemError) {
            preparation = try await offload { [overlapsCurvature] () throws(SnapPoemError) in
                try overlapsCurvature ? ImagePreprocessor.assumedFlat(levelled) : ImagePreprocessor.shaped(levelled)
            }
        } catch {
            throw error.naming(name)
        }
        var preprocessTime = clock.now - preprocessStart
        if Task.isCancelled { throw .cancelled(path: name) }

        var recognition = configuration.recognition
        if var region = recognition.regionOfInterest, image.width > 0, image.height > 0 {
            // The region is given in the decoded image's pixels; Tesseract sees the prepared
            // one. Clipped first, so that scaling cannot overflow.
            region.left = min(max(region.left, 0), image.width)
            region.top = min(max(region.top, 0), image.height)
            region.right = min(max(region.right, region.left), image.width)
            region.bottom = min(max(region.bottom, region.top), image.height)
            let scaleX = Double(preparation.image.width) / Double(image.width)
            let scaleY = Double(preparation.image.height) / Double(image.height)
            recognition.regionOfInterest = region.scaled(x: scaleX, y: scaleY)
        }
        // Tesseract's layout analysis cannot be stopped, and a page of scattered specks keeps
        // it busy for minutes: the marks it would analyse are counted first (`PageMarks`).
        let countStart = clock.now
        // A prepared page over the bound (sensor noise or a texture that preparing turned into
        // specks) is read as it is instead, when the image as it is is within the bound: an
        // honest photo is never refused for what preparing did to it.
        let plainInstead = try await withinMarkBound(preparation, image: image, options: recognition, name: name)
        // A page turned on a guess or by orientation detection is turned from the page that was
        // read: the image as it is when the prepared page was over the bound (turned from the
        // prepared page, a turned photo counted 143,605 marks, and was either read for minutes
        // or not at all).
        var turnStage = stage
        if let plainInstead {
            preparation = plainInstead.prepared
            overlapsCurvature = false
            // The plain page's own stage, made once for it; turned the way the options say.
            turnStage = plainInstead.stage
            turnStage.options.detectsOrientation = options.detectsOrientation
        }
        preprocessTime += clock.now - countStart
        // An engine still finishing an earlier image's abandoned work (a time limit reached
        // in layout analysis or orientation detection) does that first: this image's time
        // limit starts after it.
        if isWorking { await finishWork() }
        // Nor is it charged for loading the models, when they load in the background
        // (`init(startingWith:)`); a failed load fails the scan.
        try await engineStarted()
        let recognizeStart = clock.now
        let deadline = recognition.timeLimit.map { recognizeStart.advanced(by: $0) }
        // With orientation detection at hand, a reading that starts badly stops at once.
        let mayStopEarly = preparation.report.rotation == 0 && configuration.preprocessing.detectsOrientation && orientationDetector != nil
        var analysed: LayoutAnalysis?
        if overlapsCurvature {
            // The curvature step's time counts as recognition's, which it overlaps.
            let overlapped = try await shapedDuringLayout(
                levelled, flat: preparation, options: recognition, deadline: deadline, name: name)
            preparation = overlapped.prepared
            analysed = overlapped.layout
        }
        // Tesseract's page recognition reads an inverted page, and a page read as it is because
        // its preparation could not be trusted (`plainInstead`), every time it is read.
        func readsByPage(_ prepared: PreparedImage) -> Bool { prepared.report.inverted || plainInstead != nil }
        var (page, reading) = try await read(
            preparation.image, options: recognition, deadline: deadline, name: name, progress: progress,
            doubtfulConfidence: mayStopEarly ? Self.doubtfulConfidence : nil, byPage: readsByPage(preparation),
            layoutReduction: preparation.report.lineFindingReduction, analysed: analysed)
        var recognizeTime = clock.now - recognizeStart
        if let retry = try await retryIfTurned(
            stage: turnStage, first: preparation, page: page, stopped: reading?.stoppedEarly, lineStartTurn: reading?.lineStartTurn,
            recognition: recognition,
            deadline: deadline, name: name, progress: progress)
        {
            preparation.report = retry.report
            if let better = retry.better {
                (preparation, page) = (better.prepared, better.page)
                reading = better.reading
            }
            preprocessTime += retry.preprocessTime
            recognizeTime += retry.recognizeTime
            if retry.outOfTime { page.timedOut = true }
        }
        if reading?.stoppedEarly != nil {
            // (A first reading that timed out was not checked: it stops late, not early.)
            if page.timedOut || deadline.map({ clock.now >= $0 }) == true {
                // The time limit passed during orientation detection: what the first reading
                // read stands, as the part the limit left.
                page.timedOut = true
            } else {
                // Not turned after all (or detection could not tell): read the whole page as it is.
                let again = clock.now
                (page, reading) = try await read(
                    preparation.image, options: recognition, deadline: deadline, name: name, progress: progress,
                    byPage: readsByPage(preparation), layoutReduction: preparation.report.lineFindingReduction)
                recognizeTime += clock.now - again
            }
        }

        // Tesseract's own reading of the image as it is, where the evidence asks for it, is
        // weighed against the prepared page's reading before either is completed by the
        // coverage check: the two are compared as read (the plain reading's re-reads come after
        // the comparison too), and a prepared page the plain reading replaces is not checked
        // for nothing (border-003 of the corpus's tune part: 6.8 s of 17.3).
        var plainReading: PlainReadingReport?
        var coverage: TextCoverage?
        var coverageTime: Duration = .zero
        var keptPlain = false
        if plainInstead == nil {
            let plainStart = clock.now
            let checked = try await checkAgainstPlainReading(
                image, prepared: preparation, page: page, language: reading?.language, recognition: recognition,
                deadline: deadline, name: name)
            plainReading = checked?.report
            if let plain = checked?.kept {
                (preparation, page, reading, coverage) = (plain.prepared, plain.page, plain.reading, plain.coverage)
                keptPlain = true
            }
            recognizeTime += clock.now - plainStart
        }
        if !keptPlain, configuration.checksTextCoverage, CoverageCheck.applies(to: recognition.pageSegmentation), !page.timedOut {
            let coverageStart = clock.now
            let report = preparation.report
            let lightOnDark = (report.analysis?.isLightOnDark ?? false) && !report.inverted
            let checked = try await CoverageCheck(recognizer: recognizer).complete(
                page, in: preparation.image, options: recognition, lightOnDark: lightOnDark, deadline: deadline, name: name)
            page = checked.page
            coverage = checked.coverage
            // The time limit ended the re-read: what is missing is reported as for a first
            // reading the limit cut short.
            if checked.coverage.rereadCutShort { page.timedOut = true }
            coverageTime = clock.now - coverageStart
        }
        if let plainInstead {
            plainReading = PlainReadingReport(
                reason: plainInstead.reason, prepared: ReadingQuality(sureLetters: 0, doubtfulCharacters: 0),
                plain: ReadingQuality(of: page), kept: .plain, milliseconds: 0)
        }

        let personalizeStart = clock.now
        // Runs of spaces the user asked Tesseract to keep are not tidied away again.
        let preservesSpaces = configuration.recognition.preserveInterwordSpaces
        var cleanup = configuration.cleanup
        if preservesSpaces { cleanup.tidiesSpaces = false }
        // Clean-up and personalisation take CPU in proportion to the text and the pairs: on a
        // Dispatch thread, like every other step, so that Swift's cooperative pool stays free.
        let replacements = configuration.replacements
        let laidOut = page
        let tidying = cleanup
        let (recognizedText, personalized) = try await offload { () throws(SnapPoemError) in
            let text = tidying.clean(PoemLayout.text(of: laidOut, preservingSpaces: preservesSpaces))
            return (text, replacements.apply(to: text, words: laidOut.words))
        }
        let personalizeTime = clock.now - personalizeStart
        var poem = ScannedPoem(
            source: name,
            imageFacts: facts
                ?? ImageFacts(format: .unknown, storedWidth: image.width, storedHeight: image.height, orientation: .up),
            recognizedWidth: preparation.image.width,
            recognizedHeight: preparation.image.height,
            preprocessing: configuration.preprocessing,
            preprocessingReport: preparation.report,
            preprocessedImage: configuration.keepsPreprocessedImage ? preparation.image : nil,
            page: page,
            coverage: coverage,
            recognizedText: recognizedText,
            personalized: personalized,
            timings: StageTimings(
                decode: decodeTime, preprocess: preprocessTime, recognize: recognizeTime, personalize: personalizeTime,
                coverageCheck: coverageTime))
        if configuration.keepsUprightImage { poem.uprightImage = image }
        poem.reading = reading
        poem.plainReading = plainReading
        poem.timeLimit = configuration.recognition.timeLimit
        return poem
    }

    /// Recognises a prepared image: line by line with this scanner's engines
    /// (`PageReading`) when the configuration asks for it and the lines are level, else by
    /// one call of Tesseract's page recognition, which the caller asks for (`byPage`) for an
    /// inverted page and for one read as it is. `analysed` is the layout analysis of `image`
    /// when it was made already (`shapedDuringLayout`).
    func read(
        _ image: PoemImage, options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String,
        progress: (@Sendable (Int) -> Void)?, doubtfulConfidence: Int? = nil, byPage: Bool = false,
        layoutReduction: Double = 1, analysed: LayoutAnalysis? = nil
    ) async throws(SnapPoemError) -> (RecognizedPage, ReadingReport?) {
        // By page: light text inverted to dark (line by line read the chalkboard sample with
        // 6.7 % CER, smudges taken for lines; Tesseract's page recognition 1.9 %), and the
        // image as it is, read because its prepared page was over the mark bound, a noisy
        // photo (low light, grain, a screen), where a line's rectangle read alone keeps the
        // specks around its letters, which page recognition sets aside as noise (a low-light
        // draw of the corpus: 24.4 % CER line by line, 3.3 % by page, the CLI 2.9 %).
        if configuration.readsByLine, PageReading.applies(to: options), !byPage,
            let read = try await PageReading(engines: engines, choosesLanguage: configuration.choosesLanguage).read(
                image, options: options, deadline: deadline, name: name, progress: progress, doubtfulConfidence: doubtfulConfidence,
                layoutReduction: layoutReduction, analysed: analysed)
        {
            return (read.page, read.report)
        }
        var options = options
        if let deadline { options.timeLimit = max(.zero, ContinuousClock.now.duration(to: deadline)) }
        return (try await recognizer.recognize(image, options: options, name: name, progress: progress), nil)
    }
}
