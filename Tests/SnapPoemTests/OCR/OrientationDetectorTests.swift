import Foundation
import Testing

@testable import SnapPoem

@Suite("Orientation detection: turned pages are found, upright ones are never turned")
struct OrientationDetectorTests {
    private static let detector = Task { () throws -> OrientationDetector in try OrientationDetector() }

    /// What the detector sees in the pipeline: the image after scaling, inversion and flattening.
    static func stage(_ file: String) throws -> PoemImage {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        return try ImagePreprocessor.process(image, options: PreprocessingOptions(detectsOrientation: false, deskews: false)).image
    }

    @Test("No upright sample is ever given a confident turn", arguments: ImageAnalysisTests.uprightSamples + ["blank.png"])
    func uprightStaysUpright(file: String) async throws {
        let found = try await Self.detector.value.detect(try Self.stage(file))
        if let found {
            #expect(!OrientationDetector.shouldRotate(found), "\(file): \(found)")
        }
    }

    @Test(
        "Turned pages are detected with the turn that undoes them",
        arguments: [
            ("photo-rotated-90.png", 270), ("photo-rotated-180.png", 180), ("photo-rotated-270.png", 90),
        ])
    func turnedPages(file: String, rotation: Int) async throws {
        let found = try #require(try await Self.detector.value.detect(try Self.stage(file)))
        #expect(found.rotation == rotation)
        #expect(OrientationDetector.shouldRotate(found), "\(found)")
        #expect(found.script == "Latin")
    }

    @Test("The pipeline turns a page that reads badly and re-measures its tilt; an upright one is kept")
    func pipelineWithDetector() async throws {
        // The one orientation policy: the scanner asks OSD when a first reading is doubtful.
        let scanner = try await SharedScanner.get()
        let turned = try await scanner.scan(fileAt: Fixtures.sample("photo-rotated-180.png"))
        #expect(turned.preprocessingReport.rotation == 180)
        #expect(turned.preprocessingReport.skew.map { abs($0.angle) < 0.3 } == true)
        let kept = try await scanner.scan(fileAt: Fixtures.sample("photo-clean.png"))
        #expect(kept.preprocessingReport.rotation == 0)
        // Asked about the upright page, the detector answers with a confidence, and no turn.
        let found = try #require(try await Self.detector.value.detect(try Self.stage("photo-clean.png")))
        #expect(!OrientationDetector.shouldRotate(found), "\(found)")
    }

    @Test("A tessdata folder without osd.traineddata is a clear error")
    func missingModel() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Fixtures.root.appendingPathComponent("tessdata/eng.traineddata"),
            to: folder.appendingPathComponent("eng.traineddata"))
        #expect(throws: SnapPoemError.languageNotAvailable(language: "osd", tessdata: folder.path, available: ["eng"])) {
            _ = try OrientationDetector(tessdataDirectory: folder.path)
        }
    }
}
