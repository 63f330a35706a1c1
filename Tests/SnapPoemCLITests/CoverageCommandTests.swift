import Foundation
import Testing

@testable import SnapPoem
@testable import SnapPoemCLI

@Suite("The text coverage check on the command line: warnings, JSON, switches")
struct CoverageCommandTests {
    /// Writes Lenore's stanzas 3–4 turned 4.5° clockwise, which Tesseract reads with lines
    /// missing when the page is not deskewed, into `folder`.
    static func tiltedPage(in folder: URL) throws -> String {
        let (render, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/lenore-stanzas-3-4.png"))
        let path = folder.appendingPathComponent("tilted page.png").path
        try ImagePreprocessor.deskewed(render, angle: 4.5).pngData().write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Skipped lines are read again: one warning naming the file, every line in the output, coverage in the JSON")
    func rereadWarning() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.tiltedPage(in: folder)
        let result = await CapturedRun.run([path, "--no-deskew", "--format", "json"])
        #expect(result.status == 0, "\(result.error)")
        let warnings = result.error.split(separator: "\n")
        #expect(warnings.count == 1, "\(result.error)")
        #expect(
            warnings.first?.hasPrefix("snap-poem: warning: \(path): Tesseract's layout analysis skipped ") == true, "\(result.error)")
        #expect(warnings.first?.contains("read again on their own and put back in place (text covered: ") == true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let coverage = try #require(object["coverage"] as? [String: Any])
        #expect(coverage["complete"] as? Bool == true)
        #expect((coverage["rereadRegions"] as? [Any])?.isEmpty == false)
        #expect((coverage["coveredBeforeReread"] as? Double ?? 1) < 0.5)
        let text = try #require(object["text"] as? String)
        #expect(text.split(separator: "\n").count == 14, "\(text)")
    }

    @Test("--no-coverage-check: no check, no warning, no coverage in the JSON, and lines are missing")
    func switchedOff() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.tiltedPage(in: folder)
        let result = await CapturedRun.run([path, "--no-deskew", "--no-coverage-check", "--format", "json"])
        #expect(result.status == 0 && result.error.isEmpty, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["coverage"] == nil)
        #expect(((object["text"] as? String) ?? "").split(separator: "\n").count < 8)
    }

    @Test("--no-coverage-check and --no-clear-surround switch their step off")
    func switches() throws {
        let defaults = try CommandOptions(try ParsedArguments.parse(["a.png"])).scan
        #expect(defaults.checksTextCoverage && defaults.preprocessing.clearsSurround)
        let off = try CommandOptions(try ParsedArguments.parse(["a.png", "--no-coverage-check", "--no-clear-surround"])).scan
        #expect(!off.checksTextCoverage && !off.preprocessing.clearsSurround)
    }

    @Test("Text still unread is one warning line; a read page gives none")
    func unreadWarning() throws {
        let page = RecognizedPage(text: "", meanConfidence: 0, blocks: [], timedOut: false, imageWidth: 100, imageHeight: 100)
        var poem = ScannedPoem(
            source: "page.png",
            imageFacts: ImageFacts(format: .png, storedWidth: 100, storedHeight: 100, orientation: .up),
            recognizedWidth: 100, recognizedHeight: 100, preprocessingReport: PreprocessingReport(inputWidth: 100, inputHeight: 100),
            page: page, recognizedText: "", personalized: ReplacementSet().apply(to: ""), timings: StageTimings())
        #expect(PoemDiagnostics.coverage(of: poem, name: "page.png").map(\.text).isEmpty)
        poem.coverage = TextCoverage(textShapeCount: 300, coveredBeforeReread: 1, coveredAfterReread: 1)
        #expect(PoemDiagnostics.coverage(of: poem, name: "page.png").map(\.text).isEmpty)
        let region = BoundingBox(left: 0, top: 10, right: 90, bottom: 30)
        poem.coverage = TextCoverage(
            textShapeCount: 300, coveredBeforeReread: 0.6, coveredAfterReread: 0.996,
            rereadRegions: [RereadRegion(box: region, lineCount: 2, wordCount: 12)], unreadRegions: [region])
        #expect(poem.hasUnreadText)
        #expect(
            PoemDiagnostics.coverage(of: poem, name: "page.png").map(\.text) == [
                "page.png: Tesseract's layout analysis skipped 2 lines of text; they were read again on their own and put back in place (text covered: 60 % → 99 %)",
                "page.png: 1 region of text could not be read (99 % of the text is covered); the poem may be missing lines: compare it with the image (the JSON export lists the regions under coverage.unreadRegions)",
            ])
    }
}
