import Foundation
import Testing

@testable import SnapPoem

/// Issue 9: no line may be lost, whatever the tilt. Two renders of a poem, turned from −5° to
/// +5° in steps of 0.5°, each on white and inside a straight sheet edge on a dark table: 84
/// images, read by two scanners (two engines) side by side.
@Suite("Tilted text: every line read, on white and inside a page edge")
struct TiltSweepTests {
    /// The renders (SampleImages/tilt/, made by make-samples.sh) and their ground truth.
    static let renders = ["tilt/lenore-stanzas-3-4.png", "tilt/the-tyger.png"]
    /// −5° … +5° in steps of 0.5°.
    static let angles = (-10...10).map { Double($0) / 2 }

    struct Case: Sendable {
        let render: String
        let angle: Double
        let background: TiltedPage.Background
    }

    struct Outcome: Sendable {
        let label: String
        let rate: Double
        let missingLines: Int
        let coverage: TextCoverage?
    }

    @Test("84 tilted pages, each read with no line lost (CER ≤ 1 %)")
    func sweep() async throws {
        let sources = try Self.renders.map { render in
            (render, try ImageDecoder.decode(fileAt: Fixtures.sample(render)).image, try Fixtures.groundTruth(for: render))
        }
        let cases = sources.flatMap { render, _, _ in
            TiltedPage.Background.allCases.flatMap { background in
                Self.angles.map { Case(render: render, angle: $0, background: background) }
            }
        }
        let images = Dictionary(uniqueKeysWithValues: sources.map { ($0.0, $0.1) })
        let truths = Dictionary(uniqueKeysWithValues: sources.map { ($0.0, $0.2) })
        let workers = 2
        let outcomes = try await withThrowingTaskGroup(of: [Outcome].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let scanner = try await PoemScanner()
                    var outcomes: [Outcome] = []
                    for (index, item) in cases.enumerated() where index % workers == worker {
                        let source = try #require(images[item.render])
                        let truth = try #require(truths[item.render])
                        let tilted = try TiltedPage.make(source, clockwiseDegrees: item.angle, on: item.background)
                        let label = "\(item.render) \(item.angle)° on \(item.background)"
                        let poem = try await scanner.scan(tilted, name: label)
                        let expected = truth.split(separator: "\n").count
                        let read = poem.text.split(separator: "\n").count
                        outcomes.append(
                            Outcome(
                                label: label, rate: characterErrorRate(poem.text, truth: truth), missingLines: max(0, expected - read),
                                coverage: poem.coverage))
                    }
                    return outcomes
                }
            }
            var all: [Outcome] = []
            for try await part in group { all += part }
            return all
        }
        #expect(outcomes.count == cases.count)
        let failures = outcomes.filter { $0.rate > 0.01 || $0.missingLines > 0 }
        let report = failures.map { "\($0.label): CER \($0.rate), \($0.missingLines) lines missing, \(String(describing: $0.coverage))" }
        #expect(failures.isEmpty, "\(failures.count) of \(outcomes.count) failed:\n\(report.joined(separator: "\n"))")
    }
}
