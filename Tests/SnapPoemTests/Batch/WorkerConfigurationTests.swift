import Foundation
import Testing

@testable import SnapPoem

@Suite("The worker's first message: the scan and the export request as typed values, not argv")
struct WorkerConfigurationTests {
    /// A configuration with every setting away from its default, so that a setting the
    /// coding dropped would come back different.
    static func unusual() throws -> WorkerConfiguration {
        var scan = ScanConfiguration(
            imageLimits: ImageLimits(maxPixels: 1_000_000, maxSide: 4000, maxFileBytes: 1 << 20),
            preprocessing: PreprocessingOptions(
                scaling: .maxDimension(1600), filter: .adaptive, invertsLightText: false, detectsOrientation: false, deskews: false,
                maxOutputPixels: 70_000, clearsSurround: false),
            engine: EngineConfiguration(
                languages: try LanguageSet(parsing: "fra+eng"), tessdataDirectory: "/opt/tessdata", engineMode: .combined,
                variables: ["tessedit_do_invert": "0"]),
            recognition: RecognitionOptions(
                pageSegmentation: .singleBlock, dotsPerInch: 200, timeLimit: .milliseconds(2500), renderings: [.hocr, .alto],
                allowedCharacters: "abc", deniedCharacters: "|", preserveInterwordSpaces: true,
                regionOfInterest: BoundingBox(left: 1, top: 2, right: 30, bottom: 40)),
            replacements: ReplacementSet(
                [Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "a=b", replaceWith: "")],
                options: MatchingOptions(caseSensitive: false, wholeWords: false, strictness: .loose)))
        scan.cleanup = .layoutOnly
        scan.keepsPreprocessedImage = true
        scan.keepsUprightImage = true
        scan.checksTextCoverage = false
        var export = ExportRequest(format: .eml)
        export.mailtoLink = true
        export.to = [try EmailAddress(displayName: "Zoë", address: "z@example.org")]
        export.subject = "Pour toi"
        export.sideBySide = true
        export.jsonLayout = .jsonLines
        export.languageTag = "fr"
        export.listsChanges = true
        export.namesPoemInReplacementWarnings = true
        export.images = [.annotated, .preprocessed]
        export.imagesPage = 2
        return WorkerConfiguration(scan: scan, export: export, memoryLimit: 512 << 20)
    }

    @Test("Every setting survives the line a worker reads, so a new one cannot be dropped on the way")
    func roundTrip() throws {
        let configuration = try Self.unusual()
        let line = WorkerLine.encode(configuration)
        #expect(line.last == 0x0A && !line.dropLast().contains(0x0A), "one line")
        let decoded = try #require(WorkerLine.decode(WorkerConfiguration.self, from: line.dropLast()))
        #expect(decoded == configuration)
        #expect(decoded.scan != ScanConfiguration(), "the configuration is not the default one")
    }

    @Test("Every stored setting, in every stage, has its key in the message: a field a hand-written coding forgot fails here")
    func everyFieldEncoded() throws {
        let configuration = try Self.unusual()
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration))
        var missing: [String] = []
        Self.checkKeys(of: configuration, in: json, path: "WorkerConfiguration", missing: &missing)
        #expect(missing.isEmpty, "not in the worker's message: \(missing)")
    }

    /// Walks `value`'s stored properties (Mirror) and `json`'s keys together, noting each
    /// property of a struct that has no key of its name.
    static func checkKeys(of value: Any, in json: Any, path: String, missing: inout [String]) {
        var value = value
        if Mirror(reflecting: value).displayStyle == .optional, let wrapped = Mirror(reflecting: value).children.first?.value {
            value = wrapped
        }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct, let object = json as? [String: Any] else { return }
        for child in mirror.children {
            guard let label = child.label else { continue }
            guard let nested = object[label] else {
                missing.append("\(path).\(label)")
                continue
            }
            checkKeys(of: child.value, in: nested, path: "\(path).\(label)", missing: &missing)
        }
    }

    @Test("An outcome survives the line too: status, document, images, diagnostics, timings and coverage")
    func outcomeRoundTrip() throws {
        let outcome = ImageOutcome(
            status: .failed(.output), document: Data("poem\n".utf8), images: [.annotated: Data([0x89, 0x50])],
            diagnostics: [Diagnostic(.warning, "no text", subject: "a.png"), Diagnostic(.outputNotWritten(path: "a.txt", reason: "full"))],
            printed: ["libpng error: bad"], contentHash: "sha256:x",
            timings: StageTimings(decode: .milliseconds(3), coverageCheck: .milliseconds(7)), totalTime: .milliseconds(20),
            meanConfidence: 91, hasText: true)
        let message = WorkerMessage.result(7, outcome)
        let decoded = try #require(WorkerLine.decode(WorkerMessage.self, from: WorkerLine.encode(message).dropLast()))
        #expect(decoded == message)
        let entry = ManifestEntry(ImageJob(index: 0, input: BatchInput(path: "in/a.png", relativePath: "a.png")), outcome, optionsHash: "h")
        #expect(entry.status == .failed && entry.failure == .output)
        #expect(entry.error == "a.txt: output not written (full); nothing was left behind")
        #expect(entry.warnings == ["a.png: no text"])
        #expect(entry.messages == ["libpng error: bad"])
        #expect(entry.timings?.coverageCheckMs == 7, "the coverage check's time reaches the manifest")
    }

    @Test("A request keeps the folder its image must lie in, so a worker refuses a link swapped after the listing too")
    func requestKeepsEnclosingFolder() throws {
        let input = BatchInput(
            path: "in/a.png", relativePath: "a.png", fileSystemPath: Array("in/a.png".utf8), enclosingFolder: [0x2F, 0xE9])
        let line = WorkerLine.encode(WorkerRequest(id: 3, job: ImageJob(index: 3, input: input)))
        let decoded = try #require(WorkerLine.decode(WorkerRequest.self, from: line.dropLast()))
        #expect(decoded.job.input == input)
        #expect(decoded.job.input.enclosingFolder == [0x2F, 0xE9])
    }
}
