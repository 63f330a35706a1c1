import Foundation

/// The floor under the prepared page's reading (`PlainReadingCheck`): Tesseract's own reading
/// of the upright image, as it is, made where the evidence for the prepared page is weak,
/// and kept when it is the surer one; and the way round a prepared page that the mark bound
/// would refuse.
extension PoemScanner {
    /// The upright image as Tesseract would see it on its own (`page`): grey, at its own size
    /// (within Tesseract's limits), turned by `rotation` degrees clockwise (the quarter turn
    /// the prepared page needed), nothing else done; and the stage it was finished from, before
    /// that turn (`stage`), from which a page read this way is turned when it reads badly.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` naming `name`.
    func plainPage(
        of image: PoemImage, rotation: Int, name: String
    ) async throws(SnapPoemError) -> (page: PreparedImage, stage: ImagePreprocessor.Stage) {
        let options = PlainReadingCheck.options(from: configuration.preprocessing)
        do throws(SnapPoemError) {
            return try await offload { () throws(SnapPoemError) in
                let stage = try ImagePreprocessor.start(image, options: options)
                let turn = rotation == 0 ? nil : PageOrientation(rotation: rotation, confidence: 0)
                var plain = try ImagePreprocessor.finish(stage, turn: turn, applying: true)
                plain.report.orientationConfidence = nil
                return (plain, stage)
            }
        } catch {
            throw error.naming(name)
        }
    }

    /// Checks `prepared` against the mark bound (`PageMarks`). Over it, the image as it is
    /// (`plainPage`) is checked instead, and over that too, its grey cleaned of noise by a
    /// 5×5 median; the first within the bound is returned with the plain page's stage (for a
    /// turn, `retryIfTurned`) and the reason. Nil when the prepared page is within it.
    ///
    /// - Throws: `SnapPoemError.tooManyMarks`, with the prepared page's count, when the image
    ///   as it is and its noise-cleaned grey are over the bound too (or there is no plain page
    ///   to fall back on: a region of interest, `plainReading` never), `.outOfMemory`.
    func withinMarkBound(
        _ prepared: PreparedImage, image: PoemImage, options: RecognitionOptions, name: String
    ) async throws(SnapPoemError) -> (prepared: PreparedImage, stage: ImagePreprocessor.Stage, reason: String)? {
        let limit = options.markLimit, region = options.regionOfInterest, page = prepared.image
        do throws(SnapPoemError) {
            try await offload { () throws(SnapPoemError) in try PageMarks.check(page, region: region, limit: limit, name: name) }
            return nil
        } catch {
            guard case .tooManyMarks(_, let marks, _) = error, region == nil, configuration.plainReading != .never else { throw error }
            // Refused, the prepared page's count is the one named (what --max-marks measures).
            let refusal = error
            let plain = try await plainPage(of: image, rotation: prepared.report.rotation, name: name)
            let plainImage = plain.page.image
            let plainMarks = try await offload { () throws(SnapPoemError) in
                try PageMarks.marksOverLimit(plainImage, region: nil, limit: limit, name: name)
            }
            guard let plainMarks else {
                return (
                    plain.page, plain.stage, "the prepared page had \(marks) separate marks, over the limit; the image was read as it is"
                )
            }
            // Both over: what is counted is most often noise (low light, a sensor's grain,
            // JPEG blocks, a screen's pixel grid), which a median at the scale of a stroke
            // removes. The bound counts what is left.
            guard let cleaned = try await medianCleaned(plain.page, limit: limit, name: name) else { throw refusal }
            return (
                cleaned, plain.stage,
                "the prepared page had \(marks) separate marks and the image as it is \(plainMarks), over the limit; "
                    + "the image was read with its noise removed (a 5×5 median)"
            )
        }
    }

    /// `page` with its grey cleaned of noise by a 5×5 median, a note saying so in its report;
    /// nil when the cleaned page is still over the mark bound `limit` (or the filter fails).
    ///
    /// - Throws: `SnapPoemError.outOfMemory` naming `name`.
    func medianCleaned(_ page: PreparedImage, limit: Int?, name: String) async throws(SnapPoemError) -> PreparedImage? {
        let image = page.image
        return try await offload { () throws(SnapPoemError) -> PreparedImage? in
            guard let filtered = image.pix.medianFiltered().map(PoemImage.init(pix:)),
                try PageMarks.marksOverLimit(filtered, region: nil, limit: limit, name: name) == nil
            else { return nil }
            var denoised = page
            denoised.image = filtered
            denoised.report.notes.append("noise removed with a 5×5 median: the page had too many marks to read otherwise")
            return denoised
        }
    }

    /// What the plain reading gave, when it was kept instead of the prepared page's.
    struct PlainReadingOutcome {
        /// The plain page.
        var prepared: PreparedImage
        /// Its reading.
        var page: RecognizedPage
        /// How it was read.
        var reading: ReadingReport?
        /// Its coverage check, when the configuration asks for one.
        var coverage: TextCoverage?
        /// The decision.
        var report: PlainReadingReport
    }

    /// Compares the prepared page's reading (`page`, from `prepared`, of a poem judged to be in
    /// `language`) with Tesseract's reading of `image` as it is, when the configuration's
    /// `plainReading` policy and the evidence ask for it. Returns the decision, and the plain
    /// reading when it is the surer one; nil when no comparison applies (`never`, a region,
    /// another page segmentation mode, a reading the time limit cut short).
    ///
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    func checkAgainstPlainReading(
        _ image: PoemImage, prepared: PreparedImage, page: RecognizedPage, language: PoemLanguage?,
        recognition: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (report: PlainReadingReport, kept: PlainReadingOutcome?)? {
        guard configuration.plainReading != .never, PageReading.applies(to: recognition), !page.timedOut else { return nil }
        let quality = ReadingQuality(of: page)
        let (wanted, whyRead) = PlainReadingCheck.wants(
            configuration.plainReading, options: configuration.preprocessing, report: prepared.report, quality: quality)
        var reason = whyRead
        guard wanted else {
            return (PlainReadingReport(reason: reason, prepared: quality, plain: nil, kept: .prepared, milliseconds: 0), nil)
        }
        let clock = ContinuousClock()
        let start = clock.now
        if let deadline, clock.now >= deadline {
            return (
                PlainReadingReport(reason: "\(reason); no time was left", prepared: quality, plain: nil, kept: .prepared, milliseconds: 0),
                nil
            )
        }
        var plain = try await plainPage(of: image, rotation: prepared.report.rotation, name: name).page
        func decided(_ why: String, plain: ReadingQuality?, kept: PlainReadingReport.Kept) -> PlainReadingReport {
            let took = start.duration(to: clock.now)
            let milliseconds = Int(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)
            return PlainReadingReport(reason: why, prepared: quality, plain: plain, kept: kept, milliseconds: milliseconds)
        }
        // The plain page meets the mark bound too: a page of scattered specks is not read as it
        // is. What is counted is then most often noise (low light, a sensor's grain, JPEG
        // blocks, a screen's pixel grid), which a median at the scale of a stroke removes: the
        // floor is that page cleaned, when the cleaned page is within the bound.
        if try await !isWithinMarkBound(plain.image, limit: recognition.markLimit, region: nil, name: name) {
            guard let cleaned = try await medianCleaned(plain, limit: recognition.markLimit, name: name) else {
                return (decided("\(reason); the image as it is has too many marks to read", plain: nil, kept: .prepared), nil)
            }
            plain = cleaned
            reason += "; the image as it is has too many marks to read, and was read with its noise removed (a 5×5 median)"
        }
        // Tesseract's own reading is its page recognition, not snap-poem's line by line: read
        // alone, a line's rectangle on a page left tilted holds parts of its neighbours, and
        // half the lines of a tilted screen photo came back empty (CER 0.57 where the CLI
        // reads 0.07).
        var pageOptions = recognition
        if let deadline { pageOptions.timeLimit = max(.zero, ContinuousClock.now.duration(to: deadline)) }
        // A poem judged French is read by the French model alone, as its prepared page was
        // (`FrenchModelPass`): with `eng+fra` the English model answers first and drops the
        // accents, and the two readings are not weighed on the same terms. On the corpus's
        // tune part, accented letters lost fell from 95 to 54 of 1,019, mean CER 4.93 → 4.91 %.
        var reader = recognizer
        if language == .french, let french = await engines.frenchWorkers().first { reader = french }
        let plainRead = try await reader.recognize(plain.image, options: pageOptions, name: name, progress: nil)
        guard !plainRead.timedOut else {
            return (decided("\(reason); the time limit ended the plain reading", plain: nil, kept: .prepared), nil)
        }
        let plainQuality = ReadingQuality(of: plainRead)
        guard PlainReadingCheck.prefersPlain(plainQuality, over: quality) else {
            return (decided(reason, plain: plainQuality, kept: .prepared), nil)
        }
        var outcome = PlainReadingOutcome(
            // Tesseract's page recognition, not snap-poem's line by line: no reading report.
            prepared: plain, page: plainRead, reading: nil, coverage: nil,
            report: decided(reason, plain: plainQuality, kept: .plain))
        if configuration.checksTextCoverage, CoverageCheck.applies(to: recognition.pageSegmentation) {
            let checked = try await CoverageCheck(recognizer: reader).complete(
                plainRead, in: plain.image, options: recognition, lightOnDark: plain.report.analysis?.isLightOnDark ?? false,
                deadline: deadline, name: name)
            outcome.page = checked.page
            outcome.coverage = checked.coverage
            if checked.coverage.rereadCutShort { outcome.page.timedOut = true }
        }
        return (outcome.report, outcome)
    }
}
