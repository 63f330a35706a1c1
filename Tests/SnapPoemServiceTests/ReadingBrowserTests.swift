import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

/// What was read, in a real browser with JavaScript switched off: Debian's Chromium and
/// chromium-driver driven by Selenium (`Browser/reading_test.py`, from the virtual environment
/// `make deps-service` creates). Pointing at a replaced word or at its box, or reaching the word
/// with the keyboard, must outline both; on the service's note page too, under its policy.
/// Screenshots go to `.build/screenshots/`. Chromium is installed by `make test-system`
/// (`make deps-browser`); without it the suite is skipped.
@Suite("What was read, in Chromium", SystemTool.chromium.required)
struct ReadingBrowserTests {
    /// Runs `reading_test.py` with `arguments` and returns its report.
    static func run(_ arguments: [String]) async throws -> [String: Any] {
        let python = Fixtures.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "\(python) is missing: run 'make deps-service' (selenium)")
        let screenshots = Fixtures.root.appendingPathComponent(".build/screenshots").path
        let run = try await RawHTTPClient.onThread { () -> (Int32, Data) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments =
                [
                    Fixtures.root.appendingPathComponent("Tests/SnapPoemServiceTests/Browser/reading_test.py").path, "--screenshots",
                    screenshots,
                ]
                + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["SE_OFFLINE"] = "true"  // never let Selenium fetch a driver: Debian's is given
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            DispatchQueue.global().asyncAfter(deadline: .now() + 900) {
                if process.isRunning { process.terminate() }
            }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data)
        }
        #expect(run.0 == 0, "reading_test.py exited \(run.0): \(String(decoding: run.1, as: UTF8.self))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: run.1) as? [String: Any], "\(String(decoding: run.1, as: UTF8.self))")
        #expect(report["error"] == nil, "\(report)")
        return report
    }

    /// What one look at a page must show: the photo loaded, every replaced word linked, and
    /// word and box outlined together on hover (of either) and on keyboard focus, not before.
    static func check(_ look: [String: Any], replaced: [String], name: String) throws {
        #expect(look["links"] as? [String] == replaced, "\(name): \(look)")
        #expect((look["imageLoaded"] as? Int ?? 0) > 0, "\(name): the embedded photo shows")
        #expect((look["labels"] as? Int ?? 0) >= 6, "\(name): line numbers on the photo")
        #expect(look["pageWidth"] as? Int == look["viewportWidth"] as? Int, "\(name): nothing wider than the window")
        #expect(look["atRest"] as? [String] == ["none", "none"], "\(name): \(look)")
        let lit = "3px solid rgb(26, 150, 65)"
        #expect(look["wordHovered"] as? [String] == [lit, lit], "\(name): pointing at the word: \(look)")
        #expect(look["boxHovered"] as? [String] == [lit, lit], "\(name): pointing at the box: \(look)")
        #expect(look["tabbedTo"] as? Bool == true, "\(name): Tab reaches the word")
        #expect(look["wordFocused"] as? [String] == [lit, lit], "\(name): the word focused: \(look)")
    }

    @Test("The side-by-side page: hover and keyboard focus light word and box together, without JavaScript")
    func sideBySidePage() async throws {
        var configuration = ScanConfiguration(replacements: ["Lenore": "Alex", "Guy De Vere": "Zoë"])
        configuration.keepsUprightImage = true
        let poem = try await PoemScanner(configuration: configuration).scan(fileAt: Fixtures.sample("Lenore.png"))
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("check.html")
        try SideBySideHTMLExporter().export(poem).write(to: page)
        let report = try await Self.run(["--page", page.path])
        try Self.check(try #require(report["page"] as? [String: Any]), replaced: ["Alex", "Zoë", "Alex", "Alex"], name: "page")
    }

    @Test("The service's note with 'Show the photo with what was read': the same, under the page's policy")
    func serviceNote() async throws {
        try await ServerProcess.with(["--jobs", "1"]) { server in
            let report = try await Self.run([
                "--url", "http://127.0.0.1:\(server.port)/", "--image", Fixtures.sample(Fixtures.stanza),
            ])
            let look = try #require(report["service"] as? [String: Any])
            try Self.check(look, replaced: ["Alex"], name: "service")
            #expect((look["violations"] as? [String])?.isEmpty == true, "policy violations: \(look["violations"] ?? "")")
        }
    }
}
