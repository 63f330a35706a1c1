import CTesseract
import Foundation

/// What reading a page line by line did: the engines, the language chosen, the lines read
/// again in the other language. Reported in `ScannedPoem.reading` and the JSON export.
public struct ReadingReport: Sendable, Equatable, Codable {
    /// How many engines read the page's lines at once.
    public var engines: Int
    /// The text lines layout analysis found.
    public var lineCount: Int
    /// The language the poem was judged to be in, or nil when no choice was made (the
    /// choice is off, or the languages are not English and French).
    public var language: PoemLanguage?
    /// How many lines were read by the French model alone.
    public var frenchLines: Int
    /// How many lines were read again because they were in the other language than the poem.
    public var lineLanguageRereads: Int
    /// Time spent in layout analysis, in milliseconds.
    public var layoutMilliseconds: Int
    /// How many times smaller than the recognised image the copy was that layout analysis
    /// found the lines in (an enlarged page's lines are found at about the scale it was
    /// photographed at); nil when it read the recognised image itself.
    public var layoutReduction: Double? = nil
    /// How many lines holding a doubtful word were read better from an enlarged copy.
    public var enlargedRereads: Int = 0
    /// Why the reading stopped before the end of the page, when it was allowed to: the
    /// layout's lines run vertically (a page turned 90° or 270°), or the first lines read
    /// as garbage (a page upside down). The scanner then asks orientation detection at once
    /// instead of reading the whole page first. Nil when the page was read to the end.
    public var stoppedEarly: EarlyStop? = nil
    /// How many lines in large type (headings, `PageReading.largeLines`) read from copies of
    /// their own, after the others, were kept: read better than with the page, or read at
    /// all where the page's reading leaves them out (taller than a quarter of the page).
    public var largeLines: Int = 0
    /// For a reading stopped at `EarlyStop.verticalLines`: the quarter turn (clockwise, 90
    /// or 270) that the lines' starts suggest (`PageReading.turnFromLineStarts`), which the
    /// scanner tries before orientation detection; nil when the lines do not say.
    public var lineStartTurn: Int? = nil

    /// Why a reading stopped early.
    public enum EarlyStop: String, Sendable, Codable {
        /// Most lines found by layout analysis are taller than wide.
        case verticalLines = "vertical-lines"
        /// The first lines read with a mean word confidence under the scanner's doubt threshold.
        case doubtfulStart = "doubtful-start"
    }

    /// Creates a report.
    public init(
        engines: Int, lineCount: Int, language: PoemLanguage?, frenchLines: Int, lineLanguageRereads: Int, layoutMilliseconds: Int
    ) {
        self.engines = engines
        self.lineCount = lineCount
        self.language = language
        self.frenchLines = frenchLines
        self.lineLanguageRereads = lineLanguageRereads
        self.layoutMilliseconds = layoutMilliseconds
    }

    /// Decodes a report, written by this version or an older one: the counts added later
    /// (`enlargedRereads`, `largeLines`) read as 0 when absent, `layoutReduction`,
    /// `stoppedEarly` and `lineStartTurn` as nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        engines = try container.decode(Int.self, forKey: .engines)
        lineCount = try container.decode(Int.self, forKey: .lineCount)
        language = try container.decodeIfPresent(PoemLanguage.self, forKey: .language)
        frenchLines = try container.decode(Int.self, forKey: .frenchLines)
        lineLanguageRereads = try container.decode(Int.self, forKey: .lineLanguageRereads)
        layoutMilliseconds = try container.decode(Int.self, forKey: .layoutMilliseconds)
        layoutReduction = try container.decodeIfPresent(Double.self, forKey: .layoutReduction)
        enlargedRereads = try container.decodeIfPresent(Int.self, forKey: .enlargedRereads) ?? 0
        stoppedEarly = try container.decodeIfPresent(EarlyStop.self, forKey: .stoppedEarly)
        largeLines = try container.decodeIfPresent(Int.self, forKey: .largeLines) ?? 0
        lineStartTurn = try container.decodeIfPresent(Int.self, forKey: .lineStartTurn)
    }
}

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
/// The language of the poem is decided here too: the first lines (at least
/// `leadingShare` of the page's line area, and 3 lines; fewer when the first two or more are
/// plainly French, `plainlyFrenchEvidence`) are read with the configured languages
/// (`eng+fra`); if they are French, the rest of the page, and those lines again, are read
/// with the French model alone, which keeps the accents the English model drops.
/// Then any line clearly in the other language than the poem's is read again with that
/// language's model: a French line in an English poem, or the reverse.
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

    /// Reads `image`.
    ///
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
        // A "line" taller than a quarter of the page (blank paper, a picture, a heading in
        // very large type) is read only at the end, from a copy of its own (`largeLines`); a
        // tall, narrow one (a tree trunk, a rule in a drawing) is not text.
        let analysis: LayoutAnalysis
        if let analysed {
            analysis = analysed
        } else {
            analysis = try await layout(image, reduction: layoutReduction, options: options, deadline: deadline, name: name)
        }
        let reducedBy = analysis.reduction
        guard let found = analysis.lines else {
            // The time limit passed during layout analysis: nothing was read.
            let page = RecognizedPage.timedOutBeforeText(
                imageWidth: image.width, imageHeight: image.height, renderings: options.renderings,
                dotsPerInch: options.dotsPerInch)
            return (
                page, ReadingReport(engines: 1, lineCount: 0, language: nil, frenchLines: 0, lineLanguageRereads: 0, layoutMilliseconds: 0)
            )
        }
        // Lines standing on end (a page turned 90° or 270°) are judged over all the lines
        // found, before tall and narrow ones are set aside: a line of such a page is often
        // both.
        let foundBoxes = found.map(\.box)
        if doubtfulConfidence != nil, foundBoxes.count >= 3, foundBoxes.filter({ $0.height > $0.width }).count * 2 > foundBoxes.count {
            var report = Self.report(engines: 1, lineCount: found.count, layoutTime: analysis.duration, reducedBy: reducedBy)
            report.stoppedEarly = .verticalLines
            report.lineStartTurn = Self.turnFromLineStarts(foundBoxes)
            return (Self.page(of: found, lines: [], image: image, timedOut: false), report)
        }
        let large = Self.largeLines(of: found, pageHeight: image.height)
        let layoutIndices = found.indices.filter { !Self.isTall(found[$0].box, in: image) && !Self.isNarrow(found[$0].box) }
        let layout = layoutIndices.map { found[$0] }
        // Lines whose boxes overlap their neighbours' are tilted (the page was not
        // deskewed): read alone, each box holds parts of the next line. Tesseract's page
        // recognition follows such lines; it reads this page.
        if Self.linesOverlap(layout) { return nil }
        let layoutTime = analysis.duration
        let workers = await engines.workers()
        var report = Self.report(engines: workers.count, lineCount: layout.count, layoutTime: layoutTime, reducedBy: reducedBy)
        guard !layout.isEmpty else {
            let page = try await Self.page(
                of: found, reading: layoutIndices, lines: [], large: large, image: image, with: workers, options: options,
                deadline: deadline, name: name, timedOut: false, report: &report)
            return (page, report)
        }
        let boxes = layout.map(\.box)
        let area = boxes.map { Double($0.width * $0.height) }
        let total = area.reduce(0, +)
        var leading = 0, covered = 0.0
        while leading < boxes.count, leading < 3 || covered < Self.leadingShare * total {
            covered += area[leading]
            leading += 1
        }
        let all = Array(boxes.indices)
        let first = Array(all.prefix(leading)), rest = Array(all.dropFirst(leading))
        var timedOut = false
        var inFrench = Set<Int>()
        // The leading lines, then the rest, handed out line by line to the engines, which read
        // on past the leading lines while they are judged; the judgement stops them when the
        // poem is French (the French model reads it all again) or the page starts badly.
        let judgesLanguage = choosesLanguage && engines.readsFrench
        let doubtful = leading < boxes.count ? doubtfulConfidence : nil
        // A poem plainly French in its first lines (`plainlyFrenchEvidence`) stops there: the
        // French model reads them again anyway.
        var settlesEarly: (@Sendable ([RecognizedLine]) -> Bool)?
        if judgesLanguage { settlesEarly = { @Sendable run in Self.isPlainlyFrench(run, doubtfulConfidence: doubtful) } }
        let queue = LineQueue(boxes: boxes, leading: leading, settlesEarly: settlesEarly) { leadingLines in
            if let doubtful, Self.startsBadly(leadingLines, below: doubtful) { return false }
            return !judgesLanguage || PoemLanguage.judge(Self.text(of: leadingLines)) != .french
        }
        // A lone engine reads with the engine an idle scanner lends (`EngineLoan`), until its
        // owner takes it back between two lines.
        let loan = workers.count == 1 ? EngineLoan.current : nil
        if let loan, let lent = loan.beginReading(queue, configuration: engines.primary.configuration) {
            defer { loan.endReading() }
            report.engines = 2
            timedOut = try await Self.read(queue, image: image, with: workers + [lent], options: options, deadline: deadline, name: name)
        } else {
            timedOut = try await Self.read(queue, image: image, with: workers, options: options, deadline: deadline, name: name)
        }
        var lines = queue.lines
        if let doubtful, !timedOut, queue.stoppedAfterLeading, Self.startsBadly(first.compactMap { lines[$0] }, below: doubtful) {
            report.stoppedEarly = .doubtfulStart
            return (Self.page(of: layout, lines: lines, image: image, timedOut: false), report)
        }

        var french: [Recognizer] = []
        if judgesLanguage, !timedOut {
            report.language = PoemLanguage.judge(Self.text(of: first.compactMap { lines[$0] })) ?? .english
            if report.language == .french { french = await engines.frenchWorkers() }
            if report.language == .french, french.isEmpty { report.language = .english }
        }
        progress?(Int(100 * Self.leadingShare))
        if !timedOut, !french.isEmpty {
            let read = try await Self.split(
                first + rest, boxes: boxes, image: image, with: french, options: options, deadline: deadline, name: name)
            timedOut = timedOut || read.timedOut
            for (index, line) in read.lines {
                lines[index] = line
                inFrench.insert(index)
            }
        } else if !timedOut {
            // Lines the queue did not hand out (a French poem whose French engines could not
            // load): read with the configured languages.
            let unread = all.filter { lines[$0] == nil }
            let read = try await Self.split(
                unread, boxes: boxes, image: image, with: workers, options: options, deadline: deadline, name: name)
            timedOut = timedOut || read.timedOut
            for (index, line) in read.lines { lines[index] = line }
        }
        if !french.isEmpty, !timedOut {
            // The French model alone is less sure of damaged print (a shadowed, curved line
            // end) than the pair: a line it reads with little confidence is read by the pair
            // too, and the surer reading is kept.
            let doubtful = lines.indices.filter { index in
                guard let line = lines[index], inFrench.contains(index) else { return false }
                return line.words.isEmpty || Self.confidence(of: line) < Self.doubtfulFrenchConfidence
            }
            let read = try await Self.split(
                doubtful, boxes: boxes, image: image, with: workers, options: options, deadline: deadline, name: name)
            timedOut = timedOut || read.timedOut
            for (index, line) in read.lines where Self.confidence(of: line) > (lines[index].map(Self.confidence(of:)) ?? -1) {
                lines[index] = line
                inFrench.remove(index)
            }
        }
        progress?(95)
        if let language = report.language, !timedOut {
            // Lines in the other language than the poem's, read again with that language's model.
            let other: PoemLanguage = language == .french ? .english : .french
            let strays = lines.indices.filter { index in
                guard let line = lines[index], !line.words.isEmpty else { return false }
                return PoemLanguage.judge(line.text) == other
            }
            // French engines are loaded only for a French line to read: an English page
            // without one pays nothing for them.
            let otherEngines = strays.isEmpty ? [] : other == .french ? (french.isEmpty ? await engines.frenchWorkers() : french) : workers
            if !otherEngines.isEmpty {
                let read = try await Self.split(
                    strays, boxes: boxes, image: image, with: otherEngines, options: options, deadline: deadline, name: name)
                timedOut = timedOut || read.timedOut
                for (index, line) in read.lines where !line.words.isEmpty {
                    lines[index] = line
                    if other == .french { inFrench.insert(index) } else { inFrench.remove(index) }
                }
                report.lineLanguageRereads = read.lines.count
            }
        }
        if rereadsDoubtfulLines, !timedOut {
            // A line with a word read with little confidence (an "I a" run together into "Ta")
            // is read again from an enlarged copy; the surer reading is kept.
            let doubtful = lines.indices.filter { index in lines[index].map(Self.hasDoubtfulWord) ?? false }
            if !doubtful.isEmpty {
                // A line the French model read is read by it again (its engines are loaded
                // already: they read that line).
                let frenchLine = doubtful.contains { inFrench.contains($0) }
                let frenchEngines = frenchLine ? (french.isEmpty ? await engines.frenchWorkers() : french) : []
                let read = try await Self.rereadEnlarged(
                    doubtful, boxes: boxes, image: image,
                    engines: { inFrench.contains($0) && !frenchEngines.isEmpty ? frenchEngines : workers },
                    options: options, deadline: deadline, name: name)
                // Cut short by the time limit (`read.timedOut`), it loses nothing: a line not
                // read again keeps its first reading, and the page is whole.
                for (index, line) in read.lines where Self.confidence(of: line) > (lines[index].map(Self.confidence(of:)) ?? -1) {
                    lines[index] = line
                    report.enlargedRereads += 1
                }
            }
        }
        report.frenchLines = inFrench.count
        let page = try await Self.page(
            of: found, reading: layoutIndices, lines: lines, large: large, image: image, with: workers, options: options,
            deadline: deadline, name: name, timedOut: timedOut, report: &report)
        return (page, report)
    }

    /// The lines of `found` in large type: taller than 64 px, and than a quarter of the page
    /// (`pageHeight`: blank paper, a picture, or a heading in very large type) or
    /// `largeLineHeights` times the median line of text. The median is taken over the lines
    /// at least twice as wide as tall (not specks of dirt), the lower one of an even count
    /// (so that a heading over one line is found), over all lines when none is that wide.
    /// Each is read again at the end from a copy of its own (`page(of:reading:…)`):
    /// Tesseract, handed the whole page and asked for a 400 px heading over 48 px lines,
    /// reads it as nothing, and reads the same pixels cut out as the heading. Tall, narrow
    /// shapes (`isNarrow`) are not among them.
    static func largeLines(of found: [LayoutLine], pageHeight: Int) -> Set<Int> {
        let candidates = found.filter { !isNarrow($0.box) }
        let wide = candidates.filter { $0.box.width >= 2 * $0.box.height }
        let heights = (wide.isEmpty ? candidates : wide).map(\.box.height).sorted()
        guard !heights.isEmpty else { return [] }
        let median = heights[(heights.count - 1) / 2]
        let limit = max(64, min(pageHeight / 4, largeLineHeights * median))
        return Set(found.indices.filter { !isNarrow(found[$0].box) && found[$0].box.height > limit })
    }

    /// How many times the median line's height a line must exceed to count as large type.
    static let largeLineHeights = 3

    /// The line height, in pixels, a line in large type is read at, at most (a smaller one is
    /// read at its own size): about four times the x-height automatic scaling gives body text
    /// (`ScalingMode.targetXHeight`).
    static let largeLineReadingHeight = 4 * ScalingMode.targetXHeight

    /// The page from `found`'s lines: those at `reading`, read as `lines` in that order, each
    /// put where layout analysis found it, with the large ones (`large`) read again from
    /// copies of their own shrunk to at most `largeLineReadingHeight` (8-bit grey images only;
    /// `rereadScaled`). A large line that was read with the page keeps the surer of its two
    /// readings (higher mean word confidence); one taller than a quarter of the page, which
    /// the page's reading leaves out, is kept only when read with `leastHeadingConfidence` (a
    /// picture reads as noise). `report.largeLines` counts the readings kept.
    static func page(
        of found: [LayoutLine], reading: [Int], lines: [RecognizedLine?], large: Set<Int>, image: PoemImage,
        with workers: [Recognizer], options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String, timedOut: Bool,
        report: inout ReadingReport
    ) async throws(SnapPoemError) -> RecognizedPage {
        var inOrder = [RecognizedLine?](repeating: nil, count: found.count)
        for (position, index) in reading.enumerated() where position < lines.count { inOrder[index] = lines[position] }
        var stopped = timedOut
        let largeIndices = large.sorted()
        if !largeIndices.isEmpty, !timedOut {
            let boxes = found.map(\.box)
            let read = try await rereadScaled(
                largeIndices, boxes: boxes, image: image, engines: { _ in workers },
                factor: { min(1, largeLineReadingHeight / Double(boxes[$0].height)) }, options: options, deadline: deadline, name: name)
            stopped = stopped || read.timedOut
            for (index, line) in read.lines {
                let sure = confidence(of: line)
                guard sure > 0 else { continue }
                if let first = inOrder[index] {
                    guard sure > confidence(of: first) else { continue }
                } else if sure < leastHeadingConfidence {
                    continue
                }
                inOrder[index] = line
                report.largeLines += 1
            }
        }
        let kept = found.indices.filter { inOrder[$0] != nil }
        return page(of: kept.map { found[$0] }, lines: kept.map { inOrder[$0] }, image: image, timedOut: stopped)
    }

    /// Whether a layout line is taller than a quarter of `image` (and than 64 px): blank paper,
    /// a picture, or a heading in very large type. Left out of the page's reading, and read
    /// at the end as large type (`largeLines`).
    static func isTall(_ box: BoundingBox, in image: PoemImage) -> Bool {
        box.height > max(64, image.height / 4)
    }

    /// Whether a layout line is tall and narrow (more than twice as tall as wide, and over
    /// 100 px): a tree trunk, a rule in a drawing. A line of text is wider than tall, bar a
    /// lone "I"; such lines are not read.
    static func isNarrow(_ box: BoundingBox) -> Bool {
        box.height > 2 * box.width && box.height > 100
    }

    /// The least mean word confidence of a line taller than a quarter of the page
    /// (`isTall`) for it to be kept: the same bar as lines found by the coverage check
    /// (`CoverageCheck.leastRereadConfidence`).
    static let leastHeadingConfidence = CoverageCheck.leastRereadConfidence

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

    /// The confidence under which a word makes its line doubtful (`hasDoubtfulWord`): such a
    /// line is read again from a copy enlarged by `rereadEnlargement`, and the reading with
    /// the higher mean word confidence is kept.
    ///
    /// Chosen on the 32 held-out images (BENCHMARKS.md): 9 of them have one line with a word
    /// under 50; reading those again ×1.5 corrected four ("Ta child" and "la child" → "I a
    /// child" on `clean-lamb` and `turned-90-lamb`, "Lun" → "L'un", "thro’" → "thro'") and
    /// made none worse, mean CER 0.092 % → 0.063 %. At 60 or 70 more lines are read again
    /// and a low-resolution page loses a letter; at 40 one of the four is missed; ×2 instead
    /// of ×1.5 corrects fewer and makes a turned page worse.
    static let doubtfulWordConfidence = 50.0
    /// How much larger the copy is from which a doubtful line is read again.
    static let rereadEnlargement = 1.5

    /// Whether `line` holds a word with visible text read with less than
    /// `doubtfulWordConfidence`.
    static func hasDoubtfulWord(_ line: RecognizedLine) -> Bool {
        line.words.contains { $0.confidence < doubtfulWordConfidence && $0.text.contains { !$0.isWhitespace } }
    }

    /// Reads the lines `indices` of `boxes` again, each from a copy of its rectangle
    /// (`TesseractEngine.lineRectangle`) enlarged by `rereadEnlargement`, with the engines
    /// `engines` gives for it (shared out so that two lines are read at once), the word boxes
    /// brought back to `image`'s pixels. Grey images only: nothing is read for another depth,
    /// nor for a line whose copy would be longer than `PreprocessingOptions.tesseractMaxSide`.
    ///
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    static func rereadEnlarged(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, engines: (Int) -> [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        try await rereadScaled(
            indices, boxes: boxes, image: image, engines: engines, factor: { _ in rereadEnlargement }, options: options,
            deadline: deadline, name: name)
    }

    /// `rereadEnlarged`, with each line's copy scaled by `factor(index)` (below 1 shrinks).
    static func rereadScaled(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, engines: (Int) -> [Recognizer], factor: (Int) -> Double,
        options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        guard image.bitsPerPixel == 8 else { return ([], false) }
        var jobs: [(index: Int, engine: Recognizer, crop: PoemImage, rectangle: BoundingBox, box: BoundingBox, factor: Double)] = []
        var perEngine: [ObjectIdentifier: Int] = [:]
        for index in indices {
            let factor = factor(index)
            guard factor.isFinite, factor > 0, let rectangle = TesseractEngine.lineRectangle(boxes[index], in: image) else { continue }
            let width = Int((Double(rectangle.width) * factor).rounded()), height = Int((Double(rectangle.height) * factor).rounded())
            // A line that would come out longer than Tesseract's coordinates reach (a page
            // near 32767 px wide) keeps its first reading.
            guard max(width, height) <= PreprocessingOptions.tesseractMaxSide, let crop = try image.cropped(to: rectangle) else {
                continue
            }
            let enlarged = try ImagePreprocessor.resized(crop, width: width, height: height)
            let inner = boxes[index].offsetBy(dx: -rectangle.left, dy: -rectangle.top).scaled(by: factor)
            // The least busy of the line's engines, so that two lines are read at once.
            guard
                let engine = engines(index).min(by: {
                    perEngine[ObjectIdentifier($0), default: 0] < perEngine[ObjectIdentifier($1), default: 0]
                })
            else { continue }
            perEngine[ObjectIdentifier(engine), default: 0] += 1
            jobs.append((index, engine, enlarged, rectangle, inner, factor))
        }
        do {
            return try await withThrowingTaskGroup(of: (lines: [(Int, RecognizedLine)], timedOut: Bool).self) { group in
                for engine in Set(jobs.map { ObjectIdentifier($0.engine) }) {
                    let mine = jobs.filter { ObjectIdentifier($0.engine) == engine }
                    group.addTask {
                        var read: [(Int, RecognizedLine)] = []
                        for job in mine {
                            let (lines, stopped) = try await job.engine.recognizeLines(
                                job.crop, boxes: [job.box], options: options, deadline: deadline, name: name)
                            if stopped { return (read, true) }
                            guard var line = lines.first else { continue }
                            func back(_ box: BoundingBox) -> BoundingBox {
                                box.scaled(by: 1 / job.factor).offsetBy(dx: job.rectangle.left, dy: job.rectangle.top)
                            }
                            line.words = line.words.map {
                                RecognizedWord(text: $0.text, confidence: $0.confidence, boundingBox: back($0.boundingBox))
                            }
                            line.boundingBox = back(line.boundingBox)
                            read.append((job.index, line))
                        }
                        return (read, false)
                    }
                }
                var all: [(Int, RecognizedLine)] = []
                var timedOut = false
                for try await part in group {
                    all += part.lines
                    timedOut = timedOut || part.timedOut
                }
                return (all, timedOut)
            }
        } catch let error as SnapPoemError {
            throw error
        } catch {
            throw .cancelled(path: name)
        }
    }

    /// The text of `lines`, one a line.
    static func text(of lines: [RecognizedLine]) -> String { lines.map(\.text).joined(separator: "\n") }

    /// Whether the first lines read give no text, or a mean word confidence under `threshold`
    /// (as `RecognizedPage.meanConfidence` rounds it): a page turned upside down.
    static func startsBadly(_ lines: [RecognizedLine], below threshold: Int) -> Bool {
        let words = lines.flatMap(\.words).filter { $0.text.contains { !$0.isWhitespace } }
        guard !words.isEmpty else { return true }
        return Int((words.map(\.confidence).reduce(0, +) / Double(words.count)).rounded()) < threshold
    }

    /// Whether `lines`, the first of a page, settle it as French on their own: they start
    /// well (no `startsBadly` below `doubtfulConfidence`, when given) and hold
    /// `plainlyFrenchEvidence`.
    static func isPlainlyFrench(_ lines: [RecognizedLine], doubtfulConfidence: Int?) -> Bool {
        if let doubtfulConfidence, startsBadly(lines, below: doubtfulConfidence) { return false }
        return PoemLanguage.judge(text(of: lines), leastEvidence: plainlyFrenchEvidence) == .french
    }

    /// Reads the lines of `queue` with `engines` at once, the first from the top, the second
    /// from the bottom. Returns whether the deadline stopped the reading.
    static func read(
        _ queue: LineQueue, image: PoemImage, with engines: [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> Bool {
        do {
            return try await withThrowingTaskGroup(of: Bool.self) { group in
                for (number, engine) in engines.prefix(2).enumerated() {
                    group.addTask {
                        try await engine.recognizeLines(
                            image, from: queue, end: number == 0 ? .top : .bottom, options: options, deadline: deadline, name: name)
                    }
                }
                var timedOut = false
                for try await stopped in group { timedOut = timedOut || stopped }
                return timedOut
            }
        } catch let error as SnapPoemError {
            throw error
        } catch {
            throw .cancelled(path: name)
        }
    }

    /// A report of a reading just past layout analysis: `engines` about to read `lineCount`
    /// lines, found in `layoutTime` on a copy `reducedBy` times smaller (nil: the image).
    private static func report(engines: Int, lineCount: Int, layoutTime: Duration, reducedBy: Double?) -> ReadingReport {
        let milliseconds = layoutTime.components.seconds * 1000 + layoutTime.components.attoseconds / 1_000_000_000_000_000
        var report = ReadingReport(
            engines: engines, lineCount: lineCount, language: nil, frenchLines: 0, lineLanguageRereads: 0,
            layoutMilliseconds: Int(milliseconds))
        report.layoutReduction = reducedBy
        return report
    }

    /// The quarter turn, clockwise, that stands a page's vertical lines upright, judged from
    /// the end they start at: lines of verse start at the left margin and end where they end,
    /// so on a page turned on its side one end of the lines is in line and the other ragged.
    /// Starts in line at the top (the left margin turned up: the page was turned 90°
    /// clockwise) give 270; at the bottom, 90. Nil when fewer than three lines stand on end,
    /// or neither end is clearly the aligned one (justified prose, columns, right-aligned
    /// lines look alike both ways): the scanner then asks orientation detection.
    ///
    /// Measured on the pages turned on their side (layout boxes from Tesseract, median
    /// absolute deviation of the ends): the aligned end 0–1 px, the ragged end 45–82 px.
    static func turnFromLineStarts(_ boxes: [BoundingBox]) -> Int? {
        let standing = boxes.filter { $0.height > $0.width }
        guard standing.count >= 3 else { return nil }
        func spread(_ values: [Int]) -> Double {
            let sorted = values.sorted()
            let median = sorted[sorted.count / 2]
            let deviations = sorted.map { abs($0 - median) }.sorted()
            return Double(deviations[deviations.count / 2])
        }
        let tops = spread(standing.map(\.top)), bottoms = spread(standing.map(\.bottom))
        let thickness = Double(standing.map(\.width).sorted()[standing.count / 2])
        let aligned = min(tops, bottoms), ragged = max(tops, bottoms)
        // The ragged end must vary by more than half a line's thickness, and three times
        // as much as the aligned one.
        guard ragged >= thickness / 2, ragged >= 3 * aligned + 1 else { return nil }
        return tops < bottoms ? 270 : 90
    }

    /// Whether more than a fifth of the consecutive lines overlap vertically by more than a
    /// quarter of the smaller one's height: text tilted by a few degrees.
    static func linesOverlap(_ layout: [LayoutLine]) -> Bool {
        let pairs = Array(zip(layout, layout.dropFirst()))
        guard pairs.count >= 2 else { return false }
        let overlapping = pairs.filter { upper, lower in
            let overlap = min(upper.box.bottom, lower.box.bottom) - max(upper.box.top, lower.box.top)
            return Double(overlap) > 0.25 * Double(min(upper.box.height, lower.box.height))
        }
        return overlapping.count * 5 > pairs.count
    }

    /// The mean word confidence under which a line read by the French model alone is read
    /// by the configured languages too (`eng+fra`), keeping the surer of the two readings.
    static let doubtfulFrenchConfidence = 80.0

    /// A line's mean word confidence over words with visible text; 0 for none.
    static func confidence(of line: RecognizedLine) -> Double {
        let words = line.words.filter { $0.text.contains { !$0.isWhitespace } }
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// Reads the lines `indices` of `boxes` with `engines` at once, from a queue of their own.
    static func split(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, with engines: [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        guard !indices.isEmpty else { return ([], false) }
        let queue = LineQueue(boxes: indices.map { boxes[$0] }, leading: 0) { _ in true }
        let timedOut = try await Self.read(queue, image: image, with: engines, options: options, deadline: deadline, name: name)
        return (zip(indices, queue.lines).compactMap { index, line in line.map { (index, $0) } }, timedOut)
    }

    /// The page built from the layout and the lines read: blocks and paragraphs as layout
    /// analysis found them, lines with words only.
    static func page(of layout: [LayoutLine], lines: [RecognizedLine?], image: PoemImage, timedOut: Bool) -> RecognizedPage {
        var blocks: [RecognizedBlock] = []
        var lastBlock = -1, lastParagraph = -1
        for (entry, read) in zip(layout, lines) {
            guard var line = read, line.words.contains(where: { $0.text.contains { !$0.isWhitespace } }) else { continue }
            line.boundingBox = entry.box
            if entry.block != lastBlock {
                blocks.append(RecognizedBlock(paragraphs: [], boundingBox: entry.blockBox))
                lastBlock = entry.block
                lastParagraph = -1
            }
            if entry.paragraph != lastParagraph {
                blocks[blocks.count - 1].paragraphs.append(RecognizedParagraph(lines: [], boundingBox: entry.box))
                lastParagraph = entry.paragraph
            }
            let p = blocks[blocks.count - 1].paragraphs.count - 1
            blocks[blocks.count - 1].paragraphs[p].lines.append(line)
            blocks[blocks.count - 1].paragraphs[p].boundingBox = blocks[blocks.count - 1].paragraphs[p].boundingBox.union(entry.box)
        }
        var page = RecognizedPage(
            text: "", meanConfidence: 0, blocks: blocks, timedOut: timedOut, imageWidth: image.width, imageHeight: image.height)
        let words = page.words.filter { $0.text.contains { !$0.isWhitespace } }
        page.meanConfidence = words.isEmpty ? 0 : Int((words.map(\.confidence).reduce(0, +) / Double(words.count)).rounded())
        page.text = CoverageCheck.text(of: page)
        return page
    }
}
