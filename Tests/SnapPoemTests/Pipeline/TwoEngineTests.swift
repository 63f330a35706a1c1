import Foundation
import Testing

@testable import SnapPoem

/// Issue 21: two engines read one image. After layout analysis the page's lines are split
/// between the engines and read in parallel; the text must be that of one engine. The
/// curvature step runs during layout analysis; the page prepared must be that of one engine.
@Suite("Two engines for one image")
struct TwoEngineTests {
    static let samples = [
        "Lenore.png", "photo-clean.png", "columns.png", "photo-rotated-180.png", "french/hugo-demain-clean.png", "curl/lenore-lift-060.png",
    ]

    @Test("Two engines give one engine's text, lines and stanzas", arguments: samples)
    func sameText(sample: String) async throws {
        let two = try await SharedScanner.get()
        var single = ScanConfiguration()
        single.recognitionEngines = 1
        let one = try await PoemScanner(configuration: single)
        let path = Fixtures.sample(sample)
        let a = try await two.scan(fileAt: path)
        let b = try await one.scan(fileAt: path)
        #expect(a.reading?.engines == 2)
        #expect(b.reading?.engines == 1)
        #expect(a.text == b.text, "\(sample)")
        #expect(a.page.lines.map(\.boundingBox) == b.page.lines.map(\.boundingBox))
        // Two engines measure the curvature during layout analysis, one after it: same result.
        #expect(a.preprocessingReport == b.preprocessingReport, "\(sample)")
        #expect(characterErrorRate(a.text, truth: try Fixtures.groundTruth(for: sample)) <= 0.02)
    }

    @Test("The curvature step during layout analysis: a flat page keeps its layout, a curled one is flattened and analysed again")
    func curvatureDuringLayout() async throws {
        let scanner = try await SharedScanner.get()
        for (sample, curled) in [("Lenore.png", false), ("curl/lenore-lift-060.png", true)] {
            let image = try ImageDecoder.decode(fileAt: Fixtures.sample(sample)).image
            let (_, levelled) = try await scanner.preprocessLevelled(image, options: scanner.configuration.preprocessing, name: sample)
            #expect(scanner.overlapsCurvatureStep(levelled), "\(sample)")
            let flat = try ImagePreprocessor.assumedFlat(levelled)
            let overlapped = try await scanner.shapedDuringLayout(
                levelled, flat: flat, options: scanner.configuration.recognition, deadline: nil, name: sample)
            // What the steps one after the other give: the same image and report.
            let sequential = try ImagePreprocessor.shaped(levelled)
            #expect(overlapped.prepared.report == sequential.report, "\(sample)")
            #expect(overlapped.prepared.image == sequential.image, "\(sample)")
            #expect(sequential.report.curvature?.applied == curled, "\(sample)")
            // The layout is that of the page to read: as it was when flat, flattened when curled
            // (analysed again, by the second engine).
            let again = try await PageReading(engines: scanner.engines).layout(
                sequential.image, reduction: sequential.report.lineFindingReduction, options: scanner.configuration.recognition,
                deadline: nil, name: sample)
            #expect(overlapped.layout.lines == again.lines && again.lines?.isEmpty == false, "\(sample)")
            #expect(overlapped.prepared.image == (curled ? sequential.image : flat.image), "\(sample)")
        }
        // One engine: nothing overlaps (a batch worker has no second core to spare); nor under
        // a time limit, which the curvature step cannot be stopped at.
        var single = ScanConfiguration()
        single.recognitionEngines = 1
        let one = try await PoemScanner(configuration: single)
        let image = try ImageDecoder.decode(fileAt: Fixtures.sample("Lenore.png")).image
        let (_, levelled) = try await one.preprocessLevelled(image, options: single.preprocessing, name: "Lenore.png")
        #expect(!one.overlapsCurvatureStep(levelled))
        var limited = ScanConfiguration()
        limited.recognition.timeLimit = .seconds(30)
        let timed = try PoemScanner(configuration: limited, sharingEnginesWith: scanner)
        #expect(!timed.overlapsCurvatureStep(levelled))
    }

    @Test("Line by line reads as Tesseract's own page recognition does")
    func sameAsPageRecognition() async throws {
        var classic = ScanConfiguration()
        classic.recognitionEngines = 1
        classic.choosesLanguage = false
        #expect(!classic.readsByLine)
        let page = try PoemScanner(configuration: classic, sharingEnginesWith: try await PoemScanner(configuration: classic))
        for sample in ["Lenore.png", "photo-clean.png", "columns.png"] {
            let truth = try Fixtures.groundTruth(for: sample)
            let lines = try await SharedScanner.get().scan(fileAt: Fixtures.sample(sample))
            let whole = try await page.scan(fileAt: Fixtures.sample(sample))
            #expect(whole.reading == nil)
            let difference = abs(characterErrorRate(lines.text, truth: truth) - characterErrorRate(whole.text, truth: truth))
            #expect(difference <= 0.002, "\(sample): CER differs by \(difference)")
        }
    }

    @Test("A batch keeps one engine per worker")
    func batchUsesOneEngine() async throws {
        let inputs = ["formats/stanza-rgb8.png", "formats/stanza-gray.png"].map { BatchInput(path: Fixtures.sample($0)) }
        let results = Results()
        try await BatchScanner(workers: 2).scan(inputs) { await results.add($0) }
        let poems = try await results.all.map { try $0.outcome.get() }
        #expect(poems.count == 2)
        #expect(poems.allSatisfy { $0.reading?.engines == 1 })
        // A batch of one image (the command line's single image) reads it with two.
        let single = Results()
        try await BatchScanner(workers: 2).scan([inputs[0]]) { await single.add($0) }
        #expect(try await single.all.first?.outcome.get().reading?.engines == 2)
    }

    @Test("An English page loads no French engine; a French one loads them")
    func frenchEnginesOnlyForFrench() async throws {
        // A scanner of its own: the shared one may have read French pages already.
        let scanner = try await PoemScanner(configuration: ScanConfiguration())
        let english = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        #expect(english.reading?.language == .english)
        #expect(english.reading?.frenchLines == 0)
        // The primary engine and the second one (both eng+fra), no French ones.
        #expect(scanner.engines.loadedCount == 2)
        let french = try await scanner.scan(fileAt: Fixtures.sample("french/hugo-demain-clean.png"))
        #expect(french.reading?.language == .french)
        #expect(scanner.engines.loadedCount == 4)
    }

    @Test("Models loaded in the background read the same; a failed load fails the scan and the start")
    func backgroundStart() async throws {
        let scanner = try PoemScanner(startingWith: ScanConfiguration())
        let early = try await scanner.scan(fileAt: Fixtures.sample("Lenore.png"))
        let reference = try await SharedScanner.get().scan(fileAt: Fixtures.sample("Lenore.png"))
        #expect(early.text == reference.text)
        try await scanner.engineStarted()

        var broken = ScanConfiguration()
        broken.engine.variables = ["no_such_tesseract_variable": "1"]
        let failing = try PoemScanner(startingWith: broken)
        await #expect(throws: SnapPoemError.self) { try await failing.engineStarted() }
        do {
            _ = try await failing.scan(fileAt: Fixtures.sample("Lenore.png"))
            Issue.record("a scanner whose models did not load read an image")
        } catch {
            #expect(error.description.contains("no_such_tesseract_variable"), "\(error)")
        }
        // Files that are not there are found at once, before any loading.
        var missing = ScanConfiguration()
        missing.engine.languages = try LanguageSet(parsing: "eng+zzz")
        #expect(throws: SnapPoemError.self) { try PoemScanner(startingWith: missing) }
    }
}

/// Collects batch results from the callback.
private actor Results {
    var all: [BatchResult] = []
    func add(_ result: BatchResult) { all.append(result) }
}
