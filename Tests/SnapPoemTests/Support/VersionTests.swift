import Foundation
import SnapPoem
import Testing

@Suite("One version: SnapPoem.version, Versions.snapPoem and the changelog agree")
struct VersionTests {
    @Test("The version is MAJOR.MINOR.PATCH and Versions.snapPoem is the same")
    func semanticVersion() {
        let parts = SnapPoem.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(SnapPoem.version)")
        #expect(Versions.snapPoem == SnapPoem.version)
    }

    @Test("CHANGELOG.md has an Unreleased section, and its latest release is SnapPoem.version")
    func changelog() throws {
        let text = try String(contentsOf: Fixtures.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## [") }
        #expect(headings.first == "## [Unreleased]")
        let releases = headings.dropFirst()
        let latest = releases.first.map { $0.dropFirst("## [".count).prefix { $0 != "]" } }
        #expect(latest.map(String.init) == SnapPoem.version, "latest release heading: \(releases.first ?? "none")")
    }
}
