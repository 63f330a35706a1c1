/// The JSON export's document, schema version 1, as described key by key in
/// `Docs/json-schema.md`.
///
/// A layer of its own, separate from the pipeline's types: every key is spelled out in
/// `CodingKeys`, so renaming a Swift property cannot change the file format. New keys may be
/// added within a version (readers ignore keys they do not know); renaming or removing a key,
/// or changing its meaning, raises `schemaVersion`. Decode it with `JSONDecoder` to read a
/// file snap-poem wrote.
public struct JSONPoemDocument: Sendable, Equatable, Codable {
    /// The schema version this type writes.
    public static let currentSchemaVersion = 1

    /// `schemaVersion`: the version of this layout; 1.
    public var schemaVersion: Int
    /// `generator`: what wrote the file.
    public var generator: Generator
    /// `source`: the image the poem was read from, as named on the command line (`-` for
    /// standard input).
    public var source: String
    /// `text`: the personalised poem.
    public var text: String
    /// `originalText`: the poem as recognised, before personalisation.
    public var originalText: String
    /// `replacements`: each change personalisation made, in text order.
    public var replacements: [ReplacementRecord]
    /// `recognition`: what Tesseract read, line by line and word by word.
    public var recognition: Recognition
    /// `image`: the photo and what was done to it before recognition.
    public var image: Image
    /// `timings`: how long each stage took.
    public var timings: Timings
    /// `coverage`: how much of the image's text-like ink the recognised words cover, before and
    /// after skipped regions were read again; absent when the check did not run, and at the
    /// top of a file of several pages (each page has its own).
    public var coverage: Coverage?
    /// `pageCount`: how many pages the file has; present only for a file of several pages
    /// (a multi-page TIFF).
    public var pageCount: Int?
    /// `pages`: every page of a file of several pages, in page order; absent for one page.
    /// The top-level keys then describe the file as a whole: `text` and `originalText` join
    /// the pages read with a form feed line (`\f\n`); `replacements` and
    /// `recognition.lines` hold every page's, each with its `page`, their `line` counted in
    /// the joined text and their boxes in their own page's image; `recognition.meanConfidence`
    /// is the mean of the pages', `timedOut` and `hasText` whether any page's is; `image`
    /// describes the first page read; `timings` add up the pages'.
    public var pages: [Page]?

    enum CodingKeys: String, CodingKey {
        case schemaVersion, generator, source, text, originalText, replacements, recognition, image, timings, coverage, pageCount
        case pages
    }

    /// One entry of `pages`: a page that was read (its own texts, replacements, recognition,
    /// image, timings and coverage, with lines and boxes counted in the page alone), or one
    /// that could not be read (`error`).
    public struct Page: Sendable, Equatable, Codable {
        /// `page`: the page's number in the file, from 1.
        public var page: Int
        /// `error`: why the page could not be read; absent when it was.
        public var error: String?
        /// `text`: the page's personalised poem.
        public var text: String?
        /// `originalText`: the page's poem as recognised.
        public var originalText: String?
        /// `replacements`: the page's replacements, lines counted in the page's text.
        public var replacements: [ReplacementRecord]?
        /// `recognition`: what Tesseract read on the page.
        public var recognition: Recognition?
        /// `image`: the page's image and its preprocessing.
        public var image: Image?
        /// `timings`: the page's stages.
        public var timings: Timings?
        /// `coverage`: the page's coverage check; absent when it did not run.
        public var coverage: Coverage?

        enum CodingKeys: String, CodingKey {
            case page, error, text, originalText, replacements, recognition, image, timings, coverage
        }
    }

    /// `generator`: the program and OCR engine that wrote the document.
    public struct Generator: Sendable, Equatable, Codable {
        /// `name`: always `snap-poem`.
        public var name: String
        /// `version`: snap-poem's version.
        public var version: String
        /// `tesseractVersion`: the Tesseract library's version.
        public var tesseractVersion: String

        enum CodingKeys: String, CodingKey { case name, version, tesseractVersion }
    }

    /// One entry of `replacements`: one place where personalisation changed the text.
    public struct ReplacementRecord: Sendable, Equatable, Codable {
        /// `line`: 1-based line in `originalText` where the replaced text starts.
        public var line: Int
        /// `column`: 1-based column (in characters) where it starts.
        public var column: Int
        /// `original`: the text that was there.
        public var original: String
        /// `replacement`: what it became.
        public var replacement: String
        /// `find`: the FIND of the pair that matched.
        public var find: String?
        /// `match`: how the text matched FIND: `exact`, `ignoring-case` or `ocr-tolerant`.
        public var match: String?
        /// `confidence`: Tesseract's confidence (0–100) in the word(s) replaced, the lowest
        /// when several; absent when unknown.
        public var confidence: Double?
        /// `page`: the page the replacement is on, at the top of a file of several pages.
        public var page: Int?

        enum CodingKeys: String, CodingKey { case line, column, original, replacement, find, match, confidence, page }
    }

    /// `recognition`: Tesseract's result.
    public struct Recognition: Sendable, Equatable, Codable {
        /// `meanConfidence`: Tesseract's mean word confidence, 0–100.
        public var meanConfidence: Int
        /// `timedOut`: true when the time limit stopped recognition (or the orientation check
        /// of a page that read badly); the texts are then partial.
        public var timedOut: Bool
        /// `hasText`: whether any word with visible characters was found (a blank page can
        /// still report a confident empty word, so `meanConfidence` cannot tell).
        public var hasText: Bool
        /// `lines`: every recognised line in reading order.
        public var lines: [Line]
        /// `reading`: how the page was read line by line (engines, the poem's language, lines
        /// read by the French model); absent when one call of Tesseract read the page.
        public var reading: ReadingReport? = nil
        /// `plainReading`: whether the page was also read as Tesseract reads the upright image
        /// on its own, and which reading was kept (`PlainReadingReport`); absent when no
        /// comparison was considered.
        public var plainReading: PlainReadingReport? = nil

        enum CodingKeys: String, CodingKey { case meanConfidence, timedOut, hasText, lines, reading, plainReading }
    }

    /// One entry of `recognition.lines`.
    public struct Line: Sendable, Equatable, Codable {
        /// `block`: 1-based number of the layout block the line is in.
        public var block: Int
        /// `paragraph`: 1-based number of the paragraph within its block.
        public var paragraph: Int
        /// `text`: the line's words as recognised, joined by single spaces.
        public var text: String
        /// `confidence`: Tesseract's confidence for the line, 0–100, to two decimals.
        public var confidence: Double
        /// `box`: where the line is in the recognised image.
        public var box: Box
        /// `words`: the line's words, left to right.
        public var words: [Word]
        /// `page`: the page the line is on, at the top of a file of several pages.
        public var page: Int?

        enum CodingKeys: String, CodingKey { case block, paragraph, text, confidence, box, words, page }
    }

    /// One entry of a line's `words`.
    public struct Word: Sendable, Equatable, Codable {
        /// `text`: the word as recognised.
        public var text: String
        /// `confidence`: Tesseract's confidence for the word, 0–100, to two decimals.
        public var confidence: Double
        /// `box`: where the word is in the recognised image.
        public var box: Box

        enum CodingKeys: String, CodingKey { case text, confidence, box }
    }

    /// A `box`: pixel edges in the recognised image (`image.recognizedWidth` ×
    /// `image.recognizedHeight`), origin at the top left; `right` and `bottom` exclusive.
    public struct Box: Sendable, Equatable, Codable {
        /// `left`
        public var left: Int
        /// `top`
        public var top: Int
        /// `right`
        public var right: Int
        /// `bottom`
        public var bottom: Int

        enum CodingKeys: String, CodingKey { case left, top, right, bottom }
    }

    /// `image`: the photo's facts and the preprocessing applied.
    public struct Image: Sendable, Equatable, Codable {
        /// `format`: the file format found from its bytes (`png`, `jpeg`, …, `unknown`).
        public var format: String
        /// `storedWidth`: width of the pixels as stored in the file.
        public var storedWidth: Int
        /// `storedHeight`: height of the pixels as stored in the file.
        public var storedHeight: Int
        /// `orientation`: the EXIF orientation applied to turn the photo upright.
        public var orientation: Orientation
        /// `recognizedWidth`: width of the image Tesseract saw (after orientation and scaling).
        public var recognizedWidth: Int
        /// `recognizedHeight`: height of the image Tesseract saw.
        public var recognizedHeight: Int
        /// `preprocessing`: what was done to the image before recognition.
        public var preprocessing: Preprocessing

        enum CodingKeys: String, CodingKey {
            case format, storedWidth, storedHeight, orientation, recognizedWidth, recognizedHeight, preprocessing
        }
    }

    /// `image.orientation`.
    public struct Orientation: Sendable, Equatable, Codable {
        /// `exifValue`: the EXIF Orientation tag, 1–8; 1 (upright) when the file had none.
        public var exifValue: Int
        /// `name`: `up`, `up-mirrored`, `down`, `down-mirrored`, `left-mirrored`, `right`,
        /// `right-mirrored` or `left`.
        public var name: String
        /// `applied`: whether the pixels were turned or mirrored (any value but 1).
        public var applied: Bool

        enum CodingKeys: String, CodingKey { case exifValue, name, applied }
    }

    /// `image.preprocessing`.
    public struct Preprocessing: Sendable, Equatable, Codable {
        /// `maxDimension`: the longest side the image was limited to, in pixels; null when
        /// its size was kept.
        public var maxDimension: Int?
        /// `filter`: the tone filter asked for: `flatten`, `adaptive`, `black-and-white` or `none`.
        public var filter: String
        /// `scaling`: how the size was chosen: `auto`, `max-dimension` or `none`.
        public var scaling: String
        /// `scaleFactor`: scaled size ÷ decoded size (1 when kept): the recognised size too,
        /// unless a keystone correction (`keystone`) changed it after.
        public var scaleFactor: Double
        /// `inverted`: whether light text on a dark ground was inverted.
        public var inverted: Bool
        /// `flattened`: whether uneven light was flattened.
        public var flattened: Bool
        /// `rotation`: clockwise quarter turns applied from orientation detection, in degrees.
        public var rotation: Int
        /// `deskewAngle`: the rotation applied to level the lines, in degrees (0 for none).
        public var deskewAngle: Double
        /// `notes`: what the user should know about the preprocessing (steps skipped, limits).
        public var notes: [String]
        /// `skew`: the tilt measurement, and what it was measured on; null when none was made.
        public var skew: Skew? = nil
        /// `surroundCleared`: the share of the image, 0–1 to three decimals, around a
        /// photographed sheet (a dark table) that was painted in the paper's tone; 0 for none.
        public var surroundCleared: Double? = nil
        /// `curvature`: how curved the text lines were (Leptonica's dewarper) and whether the
        /// page was flattened; absent when dewarping was off or no model could be built.
        public var curvature: PageCurvature? = nil
        /// `keystone`: the perspective correction of a sheet photographed at an angle;
        /// absent when none was made.
        public var keystone: Keystone? = nil
        /// `whitePoint`: the grey level raised to white because a global threshold would have
        /// cut the page's ground in two there (a screen's pixel grid, a dim photo's grain);
        /// absent when the ground was left as it was.
        public var whitePoint: Int? = nil

        enum CodingKeys: String, CodingKey {
            case maxDimension, filter, scaling, scaleFactor, inverted, flattened, rotation, deskewAngle, notes, skew
            case surroundCleared, curvature, keystone, whitePoint
        }

        /// Writes `maxDimension` as an explicit `null` rather than leaving the key out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(maxDimension, forKey: .maxDimension)
            try container.encode(filter, forKey: .filter)
            try container.encode(scaling, forKey: .scaling)
            try container.encode(scaleFactor, forKey: .scaleFactor)
            try container.encode(inverted, forKey: .inverted)
            try container.encode(flattened, forKey: .flattened)
            try container.encode(rotation, forKey: .rotation)
            try container.encode(deskewAngle, forKey: .deskewAngle)
            try container.encode(notes, forKey: .notes)
            try container.encode(skew, forKey: .skew)
            try container.encodeIfPresent(surroundCleared, forKey: .surroundCleared)
            try container.encodeIfPresent(curvature, forKey: .curvature)
            try container.encodeIfPresent(keystone, forKey: .keystone)
            try container.encodeIfPresent(whitePoint, forKey: .whitePoint)
        }
    }

    /// `image.preprocessing.keystone`: a sheet photographed at an angle, mapped onto a
    /// rectangle from its outline.
    public struct Keystone: Sendable, Equatable, Codable {
        /// `corners`: the sheet's corners as `[x, y]` in the upright decoded image's pixels,
        /// to one decimal: top left, top right, bottom right, bottom left.
        public var corners: [[Double]]
        /// `width`: the width of the rectangle the sheet was mapped onto: the corrected
        /// image's width, before any quarter turn.
        public var width: Int
        /// `height`: its height.
        public var height: Int
        /// `edgeRatio`: the longer of two opposite edges of the outline over the shorter, for
        /// the pair where that is larger, to three decimals (1 for a sheet seen square on).
        public var edgeRatio: Double

        enum CodingKeys: String, CodingKey { case corners, width, height, edgeRatio }

        /// The record of `correction`, made by the preprocessing that `report` describes:
        /// its corners (in the scaled image's pixels) scaled back to the upright image's,
        /// as `PreprocessingGeometry` scales back.
        init(_ correction: KeystoneCorrection, report: PreprocessingReport) {
            let backX = Double(report.inputWidth) / Double(max(1, report.scaledWidth))
            let backY = Double(report.inputHeight) / Double(max(1, report.scaledHeight))
            corners = correction.corners.map { [($0.x * backX * 10).rounded() / 10, ($0.y * backY * 10).rounded() / 10] }
            width = correction.width
            height = correction.height
            edgeRatio = (correction.edgeRatio * 1000).rounded() / 1000
        }
    }

    /// `image.preprocessing.skew`: the tilt of the text lines as measured.
    public struct Skew: Sendable, Equatable, Codable {
        /// `angle`: degrees to rotate clockwise to level the lines (text tilted
        /// counter-clockwise measures positive), to two decimals.
        public var angle: Double
        /// `confidence`: Leptonica's confidence in the angle, to two decimals.
        public var confidence: Double
        /// `letters`: how many letter-sized shapes the tilt was measured on.
        public var letters: Int
        /// `ignoredShapes`: how many shapes larger than any letter (a sheet's or table's
        /// edges, ruled lines, pictures) were left out of the measurement.
        public var ignoredShapes: Int

        enum CodingKeys: String, CodingKey { case angle, confidence, letters, ignoredShapes }
    }

    /// `coverage`: the text coverage check (`TextCoverage`).
    public struct Coverage: Sendable, Equatable, Codable {
        /// `textShapes`: letter-sized shapes standing in rows of text in the recognised image.
        public var textShapes: Int
        /// `coveredBeforeReread`: the share of them, 0–1 to three decimals, inside a word of
        /// Tesseract's first reading.
        public var coveredBeforeReread: Double
        /// `coveredAfterReread`: the same share after skipped regions were read again.
        public var coveredAfterReread: Double
        /// `complete`: false when text-like ink is still unread (`unreadRegions`).
        public var complete: Bool
        /// `rereadCutShort`: true when the time limit stopped the re-reading.
        public var rereadCutShort: Bool
        /// `rereadRegions`: the regions read again.
        public var rereadRegions: [Region]
        /// `unreadRegions`: boxes of text-like ink no recognised word covers.
        public var unreadRegions: [Box]

        enum CodingKeys: String, CodingKey {
            case textShapes, coveredBeforeReread, coveredAfterReread, complete, rereadCutShort, rereadRegions, unreadRegions
        }

        /// One entry of `rereadRegions`.
        public struct Region: Sendable, Equatable, Codable {
            /// `box`: where the region is in the recognised image.
            public var box: Box
            /// `lines`: how many lines the re-read added.
            public var lines: Int
            /// `words`: how many words it added.
            public var words: Int

            enum CodingKeys: String, CodingKey { case box, lines, words }
        }
    }

    /// `timings`: seconds per stage, to the microsecond.
    public struct Timings: Sendable, Equatable, Codable {
        /// `decodeSeconds`: reading and decoding the file.
        public var decodeSeconds: Double
        /// `preprocessSeconds`: grey, scaling and filtering.
        public var preprocessSeconds: Double
        /// `recognizeSeconds`: Tesseract's layout analysis and recognition.
        public var recognizeSeconds: Double
        /// `personalizeSeconds`: find/replace.
        public var personalizeSeconds: Double
        /// `totalSeconds`: every stage together.
        public var totalSeconds: Double
        /// `coverageCheckSeconds`: the text coverage check, re-reading included (nil when
        /// decoded from a file written before the check existed).
        public var coverageCheckSeconds: Double? = nil

        enum CodingKeys: String, CodingKey {
            case decodeSeconds, preprocessSeconds, recognizeSeconds, personalizeSeconds, totalSeconds, coverageCheckSeconds
        }
    }
}

extension JSONPoemDocument {
    /// The document for `poem`.
    public init(_ poem: ScannedPoem) {
        schemaVersion = Self.currentSchemaVersion
        generator = Generator(name: "snap-poem", version: Versions.snapPoem, tesseractVersion: Versions.tesseract)
        source = poem.source
        text = poem.text
        originalText = poem.recognizedText
        replacements = poem.personalized.changes.map(ReplacementRecord.init)
        var lines: [Line] = []
        for (blockIndex, block) in poem.page.blocks.enumerated() {
            for (paragraphIndex, paragraph) in block.paragraphs.enumerated() {
                for line in paragraph.lines {
                    lines.append(
                        Line(
                            block: blockIndex + 1, paragraph: paragraphIndex + 1, text: line.text,
                            confidence: Self.hundredths(line.confidence), box: Box(line.boundingBox),
                            words: line.words.map {
                                Word(text: $0.text, confidence: Self.hundredths($0.confidence), box: Box($0.boundingBox))
                            }))
                }
            }
        }
        recognition = Recognition(
            meanConfidence: poem.page.meanConfidence, timedOut: poem.page.timedOut, hasText: poem.page.hasText, lines: lines,
            reading: poem.reading, plainReading: poem.plainReading)
        let facts = poem.imageFacts
        var maxDimension: Int?
        let scaling: String
        switch poem.preprocessing.scaling {
        case .maxDimension(let side):
            maxDimension = side
            scaling = "max-dimension"
        case .automatic: scaling = "auto"
        case .original: scaling = "none"
        }
        let report = poem.preprocessingReport
        image = Image(
            format: facts.format.rawValue, storedWidth: facts.storedWidth, storedHeight: facts.storedHeight,
            orientation: Orientation(
                exifValue: facts.orientation.rawValue, name: Self.name(of: facts.orientation), applied: facts.orientation != .up),
            recognizedWidth: poem.recognizedWidth, recognizedHeight: poem.recognizedHeight,
            preprocessing: Preprocessing(
                maxDimension: maxDimension, filter: poem.preprocessing.filter.rawValue, scaling: scaling,
                scaleFactor: (report.scaleFactor * 1000).rounded() / 1000, inverted: report.inverted,
                flattened: report.flattened, rotation: report.rotation,
                deskewAngle: (report.deskewAngle * 100).rounded() / 100, notes: report.notes,
                skew: report.skew.map(Skew.init), surroundCleared: (report.clearedSurroundShare * 1000).rounded() / 1000,
                curvature: report.curvature,
                keystone: report.keystone.map { Keystone($0, report: report) }, whitePoint: report.liftedWhitePoint))
        let stages = poem.timings
        timings = Timings(
            decodeSeconds: Self.seconds(stages.decode), preprocessSeconds: Self.seconds(stages.preprocess),
            recognizeSeconds: Self.seconds(stages.recognize), personalizeSeconds: Self.seconds(stages.personalize),
            totalSeconds: Self.seconds(stages.total), coverageCheckSeconds: Self.seconds(stages.coverageCheck))
        coverage = poem.coverage.map(Coverage.init)
    }

    /// The document of a file of several pages: the whole at the top, each page under
    /// `pages` (see `pages`); nil when no page was read.
    public init?(_ document: ScannedDocument) {
        let read = document.pages.compactMap { page in page.poem.map { (page.number, $0) } }
        guard let first = read.first?.1 else { return nil }
        self.init(first)
        source = document.source
        text = document.text
        originalText = document.recognizedText
        pageCount = document.pageCount
        var allReplacements: [ReplacementRecord] = []
        var allLines: [Line] = []
        var confidences: [Int] = []
        var total = StageTimings()
        let firstLines = document.firstLines
        for ((number, poem), firstLine) in zip(read, firstLines) {
            let single = JSONPoemDocument(poem)
            allReplacements += single.replacements.map { record in
                var record = record
                record.line += firstLine - 1
                record.page = number
                return record
            }
            allLines += single.recognition.lines.map { line in
                var line = line
                line.page = number
                return line
            }
            confidences.append(poem.page.meanConfidence)
            total.decode += poem.timings.decode
            total.preprocess += poem.timings.preprocess
            total.recognize += poem.timings.recognize
            total.personalize += poem.timings.personalize
            total.coverageCheck += poem.timings.coverageCheck
        }
        replacements = allReplacements
        recognition = Recognition(
            meanConfidence: confidences.reduce(0, +) / max(1, confidences.count),
            timedOut: read.contains { $0.1.page.timedOut }, hasText: read.contains { $0.1.page.hasText }, lines: allLines)
        timings = Timings(
            decodeSeconds: Self.seconds(total.decode), preprocessSeconds: Self.seconds(total.preprocess),
            recognizeSeconds: Self.seconds(total.recognize), personalizeSeconds: Self.seconds(total.personalize),
            totalSeconds: Self.seconds(total.total), coverageCheckSeconds: Self.seconds(total.coverageCheck))
        coverage = nil
        pages = document.pages.map { page in
            switch page.result {
            case .success(let poem):
                let single = JSONPoemDocument(poem)
                return Page(
                    page: page.number, text: single.text, originalText: single.originalText, replacements: single.replacements,
                    recognition: single.recognition, image: single.image, timings: single.timings, coverage: single.coverage)
            case .failure(let error):
                return Page(page: page.number, error: error.description)
            }
        }
    }

    /// A confidence rounded to two decimals: Tesseract's are single-precision floats, and
    /// `96.52745056152344` claims digits nobody measured.
    static func hundredths(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (value * 100).rounded() / 100
    }

    /// A duration in seconds, rounded to the microsecond.
    static func seconds(_ duration: Duration) -> Double {
        let components = duration.components
        let microseconds = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        return Double(microseconds) / 1_000_000
    }

    static func name(of orientation: ExifOrientation) -> String {
        switch orientation {
        case .up: "up"
        case .upMirrored: "up-mirrored"
        case .down: "down"
        case .downMirrored: "down-mirrored"
        case .leftMirrored: "left-mirrored"
        case .right: "right"
        case .rightMirrored: "right-mirrored"
        case .left: "left"
        }
    }
}

extension JSONPoemDocument.ReplacementRecord {
    /// The record of one change. New fields of `TextChange` are added here, as new keys.
    init(_ change: TextChange) {
        let match: String
        switch change.kind {
        case .exact: match = "exact"
        case .caseInsensitive: match = "ignoring-case"
        case .ocrTolerant: match = "ocr-tolerant"
        }
        self.init(
            line: change.line, column: change.column, original: change.original, replacement: change.replacement,
            find: change.find, match: match, confidence: change.confidence.map(JSONPoemDocument.hundredths))
    }
}

extension JSONPoemDocument.Box {
    init(_ box: BoundingBox) {
        self.init(left: box.left, top: box.top, right: box.right, bottom: box.bottom)
    }
}

extension JSONPoemDocument.Skew {
    init(_ skew: SkewMeasurement) {
        self.init(
            angle: JSONPoemDocument.hundredths(skew.angle), confidence: JSONPoemDocument.hundredths(skew.confidence),
            letters: skew.letterCount, ignoredShapes: skew.ignoredShapeCount)
    }
}

extension JSONPoemDocument.Coverage {
    init(_ coverage: TextCoverage) {
        func thousandths(_ value: Double) -> Double { value.isFinite ? (value * 1000).rounded() / 1000 : 0 }
        self.init(
            textShapes: coverage.textShapeCount, coveredBeforeReread: thousandths(coverage.coveredBeforeReread),
            coveredAfterReread: thousandths(coverage.coveredAfterReread), complete: coverage.isComplete,
            rereadCutShort: coverage.rereadCutShort,
            rereadRegions: coverage.rereadRegions.map {
                Region(box: JSONPoemDocument.Box($0.box), lines: $0.lineCount, words: $0.wordCount)
            },
            unreadRegions: coverage.unreadRegions.map(JSONPoemDocument.Box.init))
    }
}
