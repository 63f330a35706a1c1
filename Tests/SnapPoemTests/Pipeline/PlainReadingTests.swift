import CTesseract
import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// Issue 45, "never refused, never worse than plain Tesseract": the floor under the prepared
/// page's reading (`PlainReadingCheck`), and noise removed instead of refused
/// (`PoemScanner.withinMarkBound`).
@Suite("Plain reading: the floor, and noise removed rather than refused")
struct PlainReadingTests {
    private static func word(_ text: String, _ confidence: Double, dictionary: Bool = false) -> RecognizedWord {
        RecognizedWord(
            text: text, confidence: confidence, boundingBox: BoundingBox(left: 0, top: 0, right: 10, bottom: 10),
            isFromDictionary: dictionary)
    }

    @Test("Sure letters are dictionary words read with some confidence, or confident words of letters; everything else is doubtful")
    func qualityMeasure() {
        let quality = ReadingQuality(words: [
            Self.word("Lenore", 91),  // a name: not in the dictionary, confident, letters
            Self.word("broken", 60, dictionary: true),  // in the dictionary, read well enough
            Self.word("a~c;", 95),  // mostly symbols: doubtful even when confident
            Self.word("ic", 30),  // garbage from a texture
            Self.word("ne", 20, dictionary: true),  // garbage that spells a word
            Self.word("1848", 97),  // no letters
        ])
        #expect(quality.sureLetters == 6 + 6)
        #expect(quality.doubtfulCharacters == 4 + 2 + 2 + 4)
        #expect(quality.score == 0)
    }

    @Test("Blank words count in Tesseract's mean confidence, not in the visible words' one")
    func visibleWordConfidence() {
        let line = RecognizedLine(
            words: [Self.word(" ", 95), Self.word("eet", 20), Self.word("  ", 95), Self.word("sti", 30)],
            boundingBox: BoundingBox(left: 0, top: 0, right: 40, bottom: 10), confidence: 60)
        let page = RecognizedPage(
            text: "eet sti", meanConfidence: 60,
            blocks: [
                RecognizedBlock(
                    paragraphs: [RecognizedParagraph(lines: [line], boundingBox: line.boundingBox)], boundingBox: line.boundingBox)
            ],
            timedOut: false, imageWidth: 40, imageHeight: 10)
        #expect(page.visibleWordConfidence == 25)
        let blank = RecognizedPage(text: "", meanConfidence: 95, blocks: [], timedOut: false, imageWidth: 1, imageHeight: 1)
        #expect(blank.visibleWordConfidence == 0)
    }

    @Test("A screen photo's pixel grid is not read as garbage: the surer reading is kept, and it reads better than the CLI")
    func screenMoireNotGarbage() async throws {
        // A photo from the randomised corpus (see SampleImages/README.md). Once the grid fooled
        // the x-height, the page was flattened and enlarged four times, and the grid read as
        // short dictionary words at confidences of 10-40 (CER 2.48 where the CLI reads 0.23).
        // Measured above the specks' tail, the page is enlarged ×2.4 and its prepared reading
        // is the surer one (328 sure letters and 26 doubtful characters against the image as
        // it is, 209 and 18): CER 0.12.
        let file = "photo-screen-moire.jpg"
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        let report = try #require(poem.plainReading, "no plain-reading report")
        let plain = try #require(report.plain, "no plain reading was made: \(report)")
        let kept = report.kept == .plain ? plain : report.prepared
        let other = report.kept == .plain ? report.prepared : plain
        #expect(kept.sureLetters - kept.doubtfulCharacters >= other.sureLetters - other.doubtfulCharacters, "\(report)")
        let error = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: file))
        #expect(error <= 0.2, "CER \(error): \(poem.recognizedText)")
    }

    @Test("The plain reading is kept only with a lead; auto reads it only where the image was changed")
    func decisionRule() throws {
        let prepared = ReadingQuality(sureLetters: 300, doubtfulCharacters: 10)
        #expect(PlainReadingCheck.isDoubtful(prepared))
        #expect(!PlainReadingCheck.isDoubtful(ReadingQuality(sureLetters: 300, doubtfulCharacters: 5)))
        #expect(PlainReadingCheck.isDoubtful(ReadingQuality(sureLetters: 60, doubtfulCharacters: 0)))
        #expect(!PlainReadingCheck.prefersPlain(prepared, over: prepared))
        #expect(!PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 290, doubtfulCharacters: 0), over: prepared))
        #expect(PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 320, doubtfulCharacters: 2), over: prepared))
        // A lead under 3 % of the sure letters is chance.
        #expect(!PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 306, doubtfulCharacters: 8), over: prepared))
        // More doubtful characters: lines read twice, unless the prepared page read almost nothing.
        #expect(!PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 360, doubtfulCharacters: 30), over: prepared))
        let nearlyNothing = ReadingQuality(sureLetters: 5, doubtfulCharacters: 20)
        #expect(PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 115, doubtfulCharacters: 40), over: nearlyNothing))
        // A prepared page that read next to nothing does not win by its lack of doubtful
        // characters over a plain reading of a noisy photo's words among its noise.
        let littleAndSure = ReadingQuality(sureLetters: 20, doubtfulCharacters: 53)
        #expect(PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 164, doubtfulCharacters: 204), over: littleAndSure))
        #expect(!PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 90, doubtfulCharacters: 120), over: littleAndSure))
        #expect(!PlainReadingCheck.prefersPlain(ReadingQuality(sureLetters: 164, doubtfulCharacters: 204), over: prepared))

        var report = PreprocessingReport(inputWidth: 1000, inputHeight: 1400)
        report.scaleFactor = 1
        #expect(!PlainReadingCheck.changesImage(report))
        #expect(PlainReadingCheck.wants(.always, report: report, quality: prepared).0)
        #expect(!PlainReadingCheck.wants(.auto, report: report, quality: prepared).0)
        // A scale or a filter the caller chose stands under auto.
        var chosen = PreprocessingOptions()
        chosen.scaling = .maxDimension(300)
        var flattened = report
        flattened.flattened = true
        #expect(!PlainReadingCheck.wants(.auto, options: chosen, report: flattened, quality: prepared).0)
        #expect(PlainReadingCheck.wants(.always, options: chosen, report: flattened, quality: prepared).0)
        for change in 0..<5 {
            var changed = report
            switch change {
            case 0: changed.flattened = true
            case 1: changed.deskewAngle = 1.5
            case 2: changed.clearedSurroundShare = 0.2
            case 3: changed.liftedWhitePoint = 170
            default: changed.scaleFactor = 2
            }
            #expect(PlainReadingCheck.wants(.auto, report: changed, quality: prepared).0, "\(change)")
            #expect(!PlainReadingCheck.wants(.never, report: changed, quality: prepared).0, "\(change)")
        }
    }

    /// `Lenore.png` in grey with `share` of its pixels made into dark specks of one pixel,
    /// spread by `seed`: a page of sensor noise that Otsu's split turns into tens of thousands
    /// of marks.
    private static func speckled(share: Double, seed: UInt64) throws -> Data {
        try EditedSample.png("Lenore.png") { grey, width, height in
            var random = SeededGenerator(seed: seed)
            let count = Int(share * Double(width) * Double(height))
            for _ in 0..<count {
                let x = Int32.random(in: 0..<width, using: &random), y = Int32.random(in: 0..<height, using: &random)
                pixSetPixel(grey, x, y, UInt32.random(in: 0...70, using: &random))
            }
        }
    }

    @Test(
        "A page of sensor noise over the mark bound is read with its noise removed, not refused",
        arguments: [(UInt64(1), 0.03), (UInt64(2), 0.05), (UInt64(3), 0.08)])
    func noiseRemovedNotRefused(seed: UInt64, share: Double) async throws {
        let data = try Self.speckled(share: share, seed: seed)
        let poem = try await SharedScanner.get().scan(imageData: data, name: "speckled-\(seed).png")
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        let report = try #require(poem.plainReading, "seed \(seed): no plain-reading report")
        #expect(report.reason.contains("noise removed"), "seed \(seed): \(report.reason)")
        #expect(characterErrorRate(poem.text, truth: truth) <= 0.05, "seed \(seed), \(share): \(poem.text)")
    }

    @Test("A photo whose image as it is has too many marks is weighed against its noise removed, and that is kept when surer")
    func grainyPlainReadCleaned() async throws {
        // A low-light photo from the randomised corpus (see SampleImages/README.md): its grain
        // puts the image as it is over the mark bound. The prepared page read no sure letter,
        // and without a floor to weigh it against, it was kept (CER 0.69; the CLI reads
        // nothing).
        let file = "photo-low-light-grain.jpg"
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        let report = try #require(poem.plainReading, "no plain-reading report")
        #expect(report.kept == .plain, "\(report)")
        #expect(report.reason.contains("noise removed"), "\(report.reason)")
        let error = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: file))
        #expect(error <= 0.03, "CER \(error): \(poem.recognizedText)")
    }

    @Test("A grainy page read as it is, because its prepared page was over the mark bound, is read by Tesseract's page recognition")
    func grainyAsItIsReadByPage() async throws {
        // Another low-light draw of the corpus (SampleImages/README.md): prepared, its grain
        // makes too many marks, so the image as it is is read. Line by line, each line's
        // rectangle kept the specks around its letters (CER 0.244: lines lost, stray marks
        // read as punctuation); Tesseract's page recognition sets them aside as the CLI does.
        let file = "photo-low-light-table.jpg"
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(file))
        let report = try #require(poem.plainReading, "no plain-reading report")
        #expect(report.kept == .plain, "\(report)")
        #expect(report.reason.contains("the image was read as it is"), "\(report.reason)")
        #expect(poem.reading == nil, "read line by line: \(String(describing: poem.reading))")
        let error = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: file))
        #expect(error <= 0.05, "CER \(error): \(poem.recognizedText)")
    }

    /// Scans the sample `name` with the plain reading always made, and returns its report,
    /// the plain reading's measure, and the plain page made here as the scanner should have
    /// made it (the upright image, grey, at its own size, nothing else done).
    private static func alwaysReadPlain(
        _ name: String
    ) async throws -> (report: PlainReadingReport, measured: ReadingQuality, plain: PreparedImage) {
        var configuration = ScanConfiguration()
        try configuration.apply([.plainReading: ["always"]])
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample(name))
        let report = try #require(poem.plainReading, "\(name): no plain-reading report")
        let measured = try #require(report.plain, "\(name): always, yet no plain reading")
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(name))
        let stage = try ImagePreprocessor.start(image, options: PlainReadingCheck.options(from: configuration.preprocessing))
        return (report, measured, try ImagePreprocessor.finish(stage, turn: nil, applying: true))
    }

    @Test("The plain reading is Tesseract's page recognition of the image as it is, as the CLI reads it, not line by line")
    func plainReadingIsTesseractsOwn() async throws {
        // Left tilted, a line's rectangle holds parts of its neighbours: read line by line,
        // a tilted screen photo lost half its lines where Tesseract's page recognition read
        // them all. The floor is Tesseract's own reading.
        let name = "photo-rotated-5deg.jpg"
        let (report, measured, plain) = try await Self.alwaysReadPlain(name)
        let shared = try await SharedScanner.get()
        let recognition = ScanConfiguration().recognition
        let page = try await shared.recognizer.recognize(plain.image, options: recognition, name: name)
        #expect(ReadingQuality(of: page) == measured, "\(name): \(report)")
    }

    @Test("A poem judged French has its plain reading made by the French model alone, which keeps its accents")
    func frenchPlainReading() async throws {
        // With eng+fra, the English model answers first and drops accents ("à" → "a"); the
        // prepared page of a French poem is read by `fra` alone (`FrenchModelPass`), and so is
        // the plain page it is weighed against.
        let name = "french/hugo-demain-photo.jpg"
        let (report, measured, plain) = try await Self.alwaysReadPlain(name)
        let shared = try await SharedScanner.get()
        let recognition = ScanConfiguration().recognition
        var french = shared.recognizer.configuration
        french.languages = ReadingEngines.frenchLanguages
        let frenchPage = try await Recognizer(configuration: french).recognize(plain.image, options: recognition, name: name)
        let bothPage = try await shared.recognizer.recognize(plain.image, options: recognition, name: name)
        #expect(ReadingQuality(of: frenchPage) == measured, "\(name): \(report)")
        // The two models read this page differently, so the check above tells them apart.
        #expect(ReadingQuality(of: bothPage) != measured, "\(name): eng+fra reads it as fra does")
    }

    @Test("Where the prepared page is read, the report says why; never leaves it out; a plain reading kept had the lead")
    func reportAndPolicy() async throws {
        let name = "photo-keystone.jpg"
        let shared = try await SharedScanner.get()
        let poem = try await shared.scan(fileAt: Fixtures.sample(name))
        let report = try #require(poem.plainReading, "\(name): no plain-reading report")
        if report.kept == .plain {
            let plain = try #require(report.plain)
            #expect(PlainReadingCheck.prefersPlain(plain, over: report.prepared), "\(report)")
        }
        let wanted =
            PlainReadingCheck.changesImage(poem.preprocessingReport) && PlainReadingCheck.isDoubtful(report.prepared)
        #expect(wanted == (report.plain != nil), "\(report)")

        var configuration = ScanConfiguration()
        try configuration.apply([.plainReading: ["never"]])
        let never = try PoemScanner(configuration: configuration, sharingEnginesWith: shared)
        #expect(try await never.scan(fileAt: Fixtures.sample(name)).plainReading == nil)
        #expect(throws: ScanOptionError.self) { try configuration.apply([.plainReading: ["sometimes"]]) }
    }
}
