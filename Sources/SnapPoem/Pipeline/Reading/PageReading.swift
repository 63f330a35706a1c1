import CTesseract
import Foundation

/// What one layout analysis of a page found (`PageReading.layout`).
struct LayoutAnalysis: Sendable {
    /// The text lines in reading order, in the analysed image's pixels; nil when the time
    /// limit passed before the analysis ended.
    var lines: [LayoutLine]?
    /// How many times smaller than the image the copy was that the lines were found in; nil
    /// for the image itself.
    var reduction: Double?
    /// How long the analysis took.
    var duration: Duration
}

/// Reads one prepared page the way `TessBaseAPIRecognize` does, but in steps that can be
/// shared: layout analysis once, then the text lines, split between the scanner's engines
/// and read in parallel, joined again in Tesseract's reading order. Tesseract's LSTM reads
/// a page one line at a time, so the text is that of one engine reading the page (measured
/// in BENCHMARKS.md, "Two engines for one image").
///
/// The reading is a short list of passes (`passes`), each a type of its own that chooses
/// lines, chooses the engine and the scale to read them with, reads them, and keeps the surer
/// reading; each has a line in the JSON report (`ReadingReport.passes`):
/// 1. `FirstReadingPass`: the page with the configured languages (`eng+fra`), the first lines
///    first, which decide the poem's language;
/// 2. `FrenchModelPass`: a French poem again with the French model alone, which keeps the
///    accents the English model drops;
/// 3. `UnreadLinesPass`: any line still unread, with the configured languages;
/// 4. `DoubtfulFrenchLinesPass`: lines the French model was unsure of, with both languages;
/// 5. `OtherLanguageLinesPass`: a line in the other language than the poem's, with that
///    language's model;
/// 6. `EnlargedDoubtfulLinesPass`: a line with a doubtful word, from an enlarged copy;
/// 7. `EdgeNoiseLinesPass`: the top and bottom lines emptied when they are the paper's
///    edge or a band of noise rather than text;
/// 8. `LargeTypePass`: lines in large type, from copies of their own.
struct PageReading {
    /// The engines to read with.
    let engines: ReadingEngines
    /// Whether the poem's language may choose the model (`ScanConfiguration.choosesLanguage`
    /// of the scan; engines shared between scanners may serve scans that differ in it).
    var choosesLanguage = true
    /// Whether a line holding a doubtful word is read again from an enlarged copy
    /// (`doubtfulWordConfidence`); off only to measure what that changes.
    var rereadsDoubtfulLines = true

    /// The share of the page's line area read before the language is decided.
    static let leadingShare = 0.15

    /// The evidence (`PoemLanguage.score`) by which the first leading lines, two or more,
    /// settle a poem as French before the other leading lines are read: twice what the
    /// leading lines together need. On the held-out set the first two lines of 11 of the
    /// 13 French poems reach it (4–9 points; "Le Lac" 2.5), those of English ones score
    /// −8 to 0 (BENCHMARKS.md).
    static let plainlyFrenchEvidence = 4.0

    /// Whether a reading with `options` can go line by line: automatic page segmentation,
    /// no renderings of Tesseract's own (hOCR, TSV, ALTO need its page result), no region
    /// of interest.
    static func applies(to options: RecognitionOptions) -> Bool {
        options.pageSegmentation == .auto && options.renderings.isEmpty && options.regionOfInterest == nil
    }

    /// The passes, in order (`EnlargedDoubtfulLinesPass` only when `rereadsDoubtfulLines`).
    var passes: [any ReadingPass] {
        var passes: [any ReadingPass] = [FirstReadingPass(), FrenchModelPass(), UnreadLinesPass(), DoubtfulFrenchLinesPass()]
        passes.append(OtherLanguageLinesPass())
        if rereadsDoubtfulLines { passes.append(EnlargedDoubtfulLinesPass()) }
        passes.append(EdgeNoiseLinesPass())
        passes.append(LargeTypePass())
        return passes
    }

    /// Reads `image`: its layout, then `passes` one after the other.
    ///
    /// - Returns: the page and the report; nil when the lines overlap (a tilted page that was
    ///   not deskewed, whose lines only Tesseract's page recognition follows).
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    ///
    /// - Parameters:
    ///   - doubtfulConfidence: when set, the reading stops early (with what it has) if the
    ///     layout's lines run vertically or the first lines' mean word confidence is under
    ///     it; `report.stoppedEarly` says why.
    ///   - layoutReduction: how many times smaller the copy is that layout analysis reads
    ///     (`PreprocessingReport.lineFindingReduction`); 1 for the image itself.
    ///   - analysed: the layout analysis of `image` when it was made already (by `layout`,
    ///     with the same options and reduction); nil to make it here.
    func read(
        _ image: PoemImage, options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String,
        progress: (@Sendable (Int) -> Void)?, doubtfulConfidence: Int? = nil, layoutReduction: Double = 1,
        analysed: LayoutAnalysis? = nil
    ) async throws(SnapPoemError) -> (page: RecognizedPage, report: ReadingReport)? {
        let analysis: LayoutAnalysis
        if let analysed {
            analysis = analysed
        } else {
            analysis = try await layout(image, reduction: layoutReduction, options: options, deadline: deadline, name: name)
        }
        guard let found = analysis.lines else {
            // The time limit passed during layout analysis: nothing was read.
            let page = RecognizedPage.timedOutBeforeText(
                imageWidth: image.width, imageHeight: image.height, renderings: options.renderings, dotsPerInch: options.dotsPerInch)
            return (page, Self.report(engines: 1, lineCount: 0, layoutTime: .zero, reducedBy: nil))
        }
        if doubtfulConfidence != nil, let stop = Self.standingLines(found, layoutTime: analysis.duration, reducedBy: analysis.reduction) {
            return (Self.page(of: found, lines: [], image: image, timedOut: false), stop)
        }
        var state = ReadingState(found: found, image: image)
        // Lines whose boxes overlap their neighbours' are tilted (the page was not deskewed):
        // read alone, each box holds parts of the next line. Tesseract's page recognition
        // follows such lines; it reads this page.
        if Self.linesOverlap(state.layout) { return nil }
        let workers = await engines.workers()
        state.report = Self.report(
            engines: workers.count, lineCount: state.layout.count, layoutTime: analysis.duration, reducedBy: analysis.reduction)
        let context = ReadingContext(
            image: image, engines: engines, workers: workers, options: options, deadline: deadline, name: name, progress: progress,
            choosesLanguage: choosesLanguage, doubtfulConfidence: doubtfulConfidence)
        let clock = ContinuousClock()
        for pass in passes {
            let start = clock.now
            let outcome = try await pass.run(&state, in: context)
            let took = start.duration(to: clock.now)
            let milliseconds = Int(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)
            state.report.passes.append(
                ReadingPassReport(name: pass.name, linesRead: outcome.linesRead, linesKept: outcome.linesKept, milliseconds: milliseconds))
            if state.report.stoppedEarly != nil {
                return (Self.page(of: state.layout, lines: state.lines, image: image, timedOut: false), state.report)
            }
        }
        state.report.frenchLines = state.inFrench.count
        return (state.page(), state.report)
    }

    /// The report of a reading that stops at once because most of the lines found (three or
    /// more) stand on end, as on a page turned 90° or 270°, with the turn their starts
    /// suggest; nil when they lie level. Judged over all the lines found, before tall and
    /// narrow ones are set aside: a line of such a page is often both.
    static func standingLines(_ found: [LayoutLine], layoutTime: Duration, reducedBy: Double?) -> ReadingReport? {
        let boxes = found.map(\.box)
        guard boxes.count >= 3, boxes.filter({ $0.height > $0.width }).count * 2 > boxes.count else { return nil }
        var report = report(engines: 1, lineCount: found.count, layoutTime: layoutTime, reducedBy: reducedBy)
        report.stoppedEarly = .verticalLines
        report.lineStartTurn = turnFromLineStarts(boxes)
        return report
    }

    /// The layout analysis of `image` by `engine` (the primary one when nil), on a copy
    /// `reduction` times smaller when that is more than 1 and the image is grey, with the boxes
    /// brought back to `image`'s pixels (`ImagePreprocessor.sampledDown`: smoothing the copy, as
    /// `pixScaleToSize` does, cost as much as the smaller layout saved).
    func layout(
        _ image: PoemImage, reduction: Double, options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String,
        engine: Recognizer? = nil
    ) async throws(SnapPoemError) -> LayoutAnalysis {
        let engine = engine ?? engines.primary
        let clock = ContinuousClock()
        let start = clock.now
        guard image.bitsPerPixel == 8,
            let reduced = try await offload({ () throws(SnapPoemError) in
                try ImagePreprocessor.sampledDown(image, by: reduction, minimumSide: 64)
            })
        else {
            let lines = try await engine.layout(image, options: options, deadline: deadline, name: name)
            return LayoutAnalysis(lines: lines, reduction: nil, duration: clock.now - start)
        }
        guard let lines = try await engine.layout(reduced, options: options, deadline: deadline, name: name) else {
            return LayoutAnalysis(lines: nil, reduction: nil, duration: clock.now - start)
        }
        let scaleX = Double(image.width) / Double(reduced.width), scaleY = Double(image.height) / Double(reduced.height)
        func enlarged(_ box: BoundingBox) -> BoundingBox {
            box.scaled(x: scaleX, y: scaleY).clipped(width: image.width, height: image.height)
        }
        let mapped = lines.map {
            LayoutLine(block: $0.block, paragraph: $0.paragraph, box: enlarged($0.box), blockBox: enlarged($0.blockBox))
        }
        return LayoutAnalysis(lines: mapped, reduction: (scaleX * 100).rounded() / 100, duration: clock.now - start)
    }
}
