import Foundation
import Testing

/// Tesseract's layout analysis cannot be stopped. `hostile-layout.png`, a page of 118 000
/// small marks (`SampleImages/make_hostile_layout.py`), keeps it busy for minutes
/// (`TabFind::FindTabVectors`); a time limit must still hold for the person waiting: the
/// answer comes at the limit, and the process ends with it.
@Suite("A time limit holds through layout analysis that runs for minutes")
struct LayoutTimeLimitTests {
    @Test("--timeout 1 on a page whose layout analysis takes minutes: exit 124 within seconds, not after the analysis")
    func cliAnswersAtTheLimit() async throws {
        let start = ContinuousClock.now
        let run = try await BinaryRun.run([Fixtures.sample("hostile-layout.png"), "--timeout", "1"])
        let took = ContinuousClock.now - start
        #expect(run.status == 124, "\(run.error)")
        #expect(run.error.contains("time limit of 1 s reached"), "\(run.error)")
        // Quiet, the answer comes after about 3 s in a release build and 10 s in a debug one
        // (decoding and preparing 36 megapixels are outside the limit); the process used to
        // wait for the analysis, 120 s more.
        #expect(took < .seconds(60), "took \(took)")
    }
}
