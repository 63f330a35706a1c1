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

    @Test("--no-dewarp leaves a curled page as it is, and the JSON reports the curvature")
    func switchAndReport() async throws {
        var configuration = ScanConfiguration()
        try configuration.apply([.noDewarp: [""]])
        #expect(configuration.preprocessing.dewarps == false)
        let scanner = try await PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
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
