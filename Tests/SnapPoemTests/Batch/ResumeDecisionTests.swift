import Foundation
import SnapPoem
import Testing

@Suite("What a rerun does with each input of an output folder")
struct ResumeDecisionTests {
    static func entry(_ status: ManifestEntry.Status, failure: ManifestEntry.Failure? = nil) -> ManifestEntry {
        ManifestEntry(
            input: "a.png", path: "in/a.png", contentHash: "sha256:content", optionsHash: "sha256:options", status: status,
            failure: failure, output: "a.txt", outputHash: "sha256:output")
    }

    static func decide(
        _ previous: ManifestEntry?, content: String = "sha256:content", options: String = "sha256:options",
        output: String? = "sha256:output", policy: ResumeDecision.Policy = .init()
    ) -> ResumeDecision {
        ResumeDecision.decide(
            previous: previous, contentHash: { content }, optionsHash: options, output: "a.txt", outputHash: { output }, policy: policy)
    }

    @Test("Done before with the same content, options and output: skipped; a timed-out one too unless --retry-failed")
    func skips() {
        #expect(Self.decide(Self.entry(.ok)) == .skip(Self.entry(.ok)))
        #expect(Self.decide(Self.entry(.skipped)) == .skip(Self.entry(.skipped)))
        #expect(Self.decide(Self.entry(.timedOut)) == .skip(Self.entry(.timedOut)))
        #expect(Self.decide(Self.entry(.timedOut), policy: .init(retryFailed: true)) == .read(overwrite: true))
    }

    @Test("Anything changed, or the output gone, or --force: read again; the own untouched output may be replaced")
    func readsAgain() {
        #expect(Self.decide(Self.entry(.ok), content: "sha256:new") == .read(overwrite: true))
        #expect(Self.decide(Self.entry(.ok), options: "sha256:new") == .read(overwrite: true))
        #expect(Self.decide(Self.entry(.ok), output: nil) == .read(overwrite: false))
        #expect(Self.decide(Self.entry(.ok), policy: .init(force: true)) == .read(overwrite: true))
        #expect(Self.decide(Self.entry(.cancelled), output: nil) == .read(overwrite: false))
        #expect(Self.decide(nil, output: nil) == .read(overwrite: false))
    }

    @Test("An output snap-poem did not write, or one changed since, is in the way without --force")
    func outputInTheWay() {
        #expect(Self.decide(nil) == .outputInTheWay)
        #expect(Self.decide(Self.entry(.ok), options: "sha256:new", output: "sha256:edited") == .outputInTheWay)
        #expect(Self.decide(nil, policy: .init(force: true)) == .read(overwrite: true))
    }

    @Test("An output the manifest remembers from a run under other options is snap-poem's own while untouched")
    func earlierOutputs() throws {
        var latest = Self.entry(.ok)
        latest.output = "a.json"
        latest.outputHash = "sha256:json"
        latest.remember([ManifestEntry.WrittenOutput(output: "a.txt", outputHash: "sha256:output")])
        #expect(Self.decide(latest, options: "sha256:new") == .read(overwrite: true))
        #expect(Self.decide(latest, options: "sha256:new", output: "sha256:edited") == .outputInTheWay)
        var refused = Self.entry(.failed, failure: .output)
        refused.outputHash = nil
        refused.remember(latest.writtenOutputs)
        #expect(refused.earlierOutputs.map(\.output) == ["a.json", "a.txt"], "a refusal wrote nothing and forgets nothing")
        #expect(Self.decide(refused, options: "sha256:new") == .read(overwrite: true))
        #expect(try JSONDecoder().decode(ManifestEntry.self, from: refused.line) == refused)
    }

    @Test("An entry remembers each earlier output once, never the one it wrote itself, and at most earlierOutputsLimit")
    func rememberBounded() {
        var entry = Self.entry(.ok)
        let records = (0..<40).map { ManifestEntry.WrittenOutput(output: "a.\($0)", outputHash: "sha256:\($0)") }
        entry.remember([ManifestEntry.WrittenOutput(output: "a.txt", outputHash: "sha256:old")] + records + records)
        #expect(entry.earlierOutputs.count == ManifestEntry.earlierOutputsLimit)
        #expect(entry.earlierOutputs.first?.output == "a.0")
        #expect(!entry.earlierOutputs.contains { $0.output == "a.txt" })
        #expect(entry.writtenOutputs.first == ManifestEntry.WrittenOutput(output: "a.txt", outputHash: "sha256:output"))
    }

    @Test("An input failure is not read again without --retry-failed; an output failure is")
    func failures() {
        let input = Self.entry(.failed, failure: .input)
        #expect(Self.decide(input, output: nil) == .failedBefore(input))
        #expect(Self.decide(input, output: nil, policy: .init(retryFailed: true)) == .read(overwrite: false))
        #expect(Self.decide(input, content: "sha256:new", output: nil) == .read(overwrite: false))
        #expect(Self.decide(Self.entry(.failed, failure: .output), output: nil) == .read(overwrite: false))
    }
}
