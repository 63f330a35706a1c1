import Foundation
import Testing

@testable import SnapPoem

/// Orientation detection under a time limit: Tesseract's cannot be stopped, so the scanner
/// stops waiting for it at the deadline (part of the wall-clock suite, run on its own).
extension RecognizerControlTests {
    @Test("Orientation detection is waited for until the deadline at most; the detector goes on working afterwards")
    func orientationDetectionMeetsTheDeadline() async throws {
        // The phone-size photo at full resolution, upside down: loading the osd model and
        // classifying its blobs takes hundreds of milliseconds, far more than the 30 ms given.
        let upsideDown = try ImagePreprocessor.rotated(
            try preparedSample("photo-phone-size.jpg", scaling: .original), clockwiseDegrees: 180)
        let detector = try OrientationDetector()
        let clock = ContinuousClock()
        let start = clock.now
        let hurried = try await detector.detect(upsideDown, before: start.advanced(by: .milliseconds(30)))
        let elapsed = clock.now - start
        guard case .outOfTime = hurried else {
            Issue.record("detection finished within 30 ms: \(hurried)")
            return
        }
        #expect(elapsed < .milliseconds(30) + .milliseconds(600), "took \(elapsed)")
        // What a scanner waits for before its next image's time limit starts.
        #expect(detector.isWorking)
        await detector.finishWork()
        #expect(!detector.isWorking)
        // The abandoned detection finishes on the detector's queue first; then a detection
        // without a deadline gives the turn, from an intact engine.
        guard case .finished(let turn) = try await detector.detect(upsideDown, before: nil) else {
            Issue.record("a detection without a deadline ran out of time")
            return
        }
        #expect(turn?.rotation == 180, "\(String(describing: turn))")
        #expect(turn.map(OrientationDetector.shouldRotate) == true, "\(String(describing: turn))")
    }

    @Test("A time limit that leaves time changes nothing: a page upside down is still turned back and read whole")
    func orientationWithinAGenerousLimit() async throws {
        var configuration = ScanConfiguration()
        configuration.recognition.timeLimit = .seconds(60)
        let poem = try await PoemScanner(configuration: configuration).scan(fileAt: Fixtures.sample("photo-rotated-180.png"))
        #expect(poem.preprocessingReport.rotation == 180)
        #expect(!poem.page.timedOut)
        #expect(!poem.preprocessingReport.notes.contains { $0.contains("time limit") }, "\(poem.preprocessingReport.notes)")
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "photo-rotated-180.png"))
        #expect(rate <= 0.01, "CER \(rate)")
    }
}
