import Foundation
import Testing

@testable import SnapPoem

/// Issue 20: a page photographed in an open book reads whole. Two renders whose lines rise
/// toward the spine by 0 to 100 px (SampleImages/curl/, made by make_book_samples.py), read
/// with the default scanner: Leptonica's dewarper flattens the curved ones and leaves the
/// flat ones alone.
@Suite("Pages curled toward a book's spine")
struct BookPageTests {
    static let lifts = [0, 20, 40, 60, 80, 100]

    @Test("The Lenore render reads with CER ≤ 1 % at every lift, flattened from 40 px on", arguments: lifts)
    func lenoreSweep(lift: Int) async throws {
        let name = String(format: "curl/lenore-lift-%03d.png", lift)
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        let rate = characterErrorRate(poem.text, truth: try Fixtures.groundTruth(for: name))
        #expect(rate <= 0.01, "\(name): CER \(rate)")
        let curvature = try #require(poem.preprocessingReport.curvature, "\(name): no curvature measured")
        #expect(curvature.applied == (lift >= 40), "\(name): curvature \(curvature)")
        if lift == 0 { #expect(!curvature.applied) }
    }

    /// The Tyger render (short, uneven lines in DejaVu Sans) has too few long lines in the top
    /// half of the page for Leptonica 1.82's own model, which refuses to build; the line fit
    /// over every line (`LineFit`) flattens it instead.
    @Test("The Tyger render reads with CER ≤ 1 % at every lift, flattened by the line fit from 40 px on", arguments: lifts)
    func tygerSweep(lift: Int) async throws {
        let name = String(format: "curl/tyger-lift-%03d.png", lift)
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        let rate = characterErrorRate(poem.text, truth: try Fixtures.groundTruth(for: name))
        #expect(rate <= 0.01, "\(name): CER \(rate)")
        if lift >= 40 { #expect(poem.preprocessingReport.curvature?.applied == true, "\(name)") }
    }

    @Test("Flat pages are measured and left alone")
    func flatPagesStayFlat() async throws {
        for name in ["Lenore.png", "photo-clean.png", "columns.png"] {
            let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
            #expect(poem.preprocessingReport.curvature?.applied != true, "\(name) was dewarped")
        }
    }

    /// A flat page is settled by a glance at a copy half as large (`ImagePreprocessor.glance`);
    /// it must decide as the full measurement does on every curled render and on flat pages,
    /// among them a curled render whose lines rise too little (20 px) to flatten, and a page
    /// of large print over four lines.
    @Test("The glance at half scale decides as the full measurement does")
    func glanceAgrees() async throws {
        let scanner = try await SharedScanner.get()
        let curls = Self.lifts.flatMap { lift in ["lenore", "tyger"].map { String(format: "curl/\($0)-lift-%03d.png", lift) } }
        for sample in curls + ["Lenore.png", "photo-clean.png", "columns.png", "heading-over-four-lines.png", "chanson-d-automne.png"] {
            let image = try ImageDecoder.decode(fileAt: Fixtures.sample(sample)).image
            let (_, levelled) = try await scanner.preprocessLevelled(image, options: scanner.configuration.preprocessing, name: sample)
            let glancing = try ImagePreprocessor.curved(levelled)
            let full = try ImagePreprocessor.curved(levelled, glancing: false)
            let curvature = try #require(full.prepared.report.curvature, "\(sample): no curvature measured")
            let applied = curvature.applied
            #expect(glancing.prepared.report.curvature?.applied == applied, "\(sample)")
            #expect(glancing.prepared.image == full.prepared.image, "\(sample)")
            // Lifts of 40 px and more are flattened; so both answers are compared.
            if sample.hasPrefix("curl/"), !sample.hasSuffix("-000.png"), !sample.hasSuffix("-020.png") { #expect(applied, "\(sample)") }
            if !sample.hasPrefix("curl/") || sample.hasSuffix("-000.png") { #expect(!applied, "\(sample)") }
        }
    }

    @Test("--no-dewarp leaves a curled page as it is, and the JSON reports the curvature")
    func switchAndReport() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.noDewarp: [""]])
        #expect(configuration.preprocessing.dewarps == false)
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let name = "curl/lenore-lift-100.png"
        let plain = try await scanner.scan(fileAt: Fixtures.sample(name))
        #expect(plain.preprocessingReport.curvature == nil)
        let flattened = try await SharedScanner.get().scan(fileAt: Fixtures.sample(name))
        let json = JSONPoemDocument(flattened)
        #expect(json.image.preprocessing.curvature?.applied == true)
        #expect(
            characterErrorRate(flattened.text, truth: try Fixtures.groundTruth(for: name))
                < characterErrorRate(plain.text, truth: try Fixtures.groundTruth(for: name)))
    }
}
