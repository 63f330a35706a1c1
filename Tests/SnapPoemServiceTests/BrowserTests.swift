import Foundation
import Testing

/// The page in a real browser: Debian's Chromium and chromium-driver, driven by Selenium
/// (`Browser/page_test.py`, from the virtual environment `make deps-service` creates),
/// against a real `snap-poem serve`. Screenshots go to `.build/screenshots/`.
@Suite("The page in Chromium")
struct BrowserTests {
    @Test("Attach Lenore.png, Lenore → Alex: the note says Alex three times, at 390 px and at 1280 px")
    func lovePoemInChromium() async throws {
        let python = Fixtures.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "\(python) is missing: run 'make deps-service' (chromium, chromium-driver, selenium)")
        let screenshots = Fixtures.root.appendingPathComponent(".build/screenshots").path
        try await ServerProcess.with(["--jobs", "2"]) { server in
            let run = try await RawHTTPClient.onThread { () -> (Int32, Data, String) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = [
                    Fixtures.root.appendingPathComponent("Tests/SnapPoemServiceTests/Browser/page_test.py").path,
                    "--url", "http://127.0.0.1:\(server.port)/", "--image", Fixtures.sample("Lenore.png"),
                    "--small-image", Fixtures.sample(Fixtures.stanza), "--screenshots", screenshots, "--timeout", "300",
                ]
                var environment = ProcessInfo.processInfo.environment
                environment["SE_OFFLINE"] = "true"  // never let Selenium fetch a driver: Debian's is given
                process.environment = environment
                let output = Pipe(), error = Pipe()
                process.standardOutput = output
                process.standardError = error
                process.standardInput = FileHandle.nullDevice
                try process.run()
                // A browser that hangs must not hang the test run.
                DispatchQueue.global().asyncAfter(deadline: .now() + 900) {
                    if process.isRunning { process.terminate() }
                }
                let errorReader = Thread { _ = error.fileHandleForReading.readDataToEndOfFile() }
                errorReader.start()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, data, "")
            }
            #expect(run.0 == 0, "page_test.py exited \(run.0): \(String(decoding: run.1, as: UTF8.self))")
            let report = try #require(
                try JSONSerialization.jsonObject(with: run.1) as? [String: Any], "\(String(decoding: run.1, as: UTF8.self))")
            #expect(report["error"] == nil, "\(report)")
            for width in ["phone", "desktop"] {
                let result = try #require(report[width] as? [String: Any], "\(report)")
                #expect(result["alexCount"] as? Int == 3, "\(width): \(result["noteText"] ?? "")")
                #expect(result["lenoreCount"] as? Int == 0, "\(width)")
                #expect(result["copyVisible"] as? Bool == true, "\(width): the page's script ran under its policy")
                #expect(result["downloads"] as? [String] == ["poem.txt", "poem.html", "poem.eml"], "\(width)")
                #expect(result["mailto"] as? Bool == true)
                #expect((result["policyViolations"] as? [String])?.isEmpty == true, "\(width): \(result["policyViolations"] ?? "")")
                // Nothing wider than the screen: no sideways scrolling on a phone.
                #expect(result["pageWidth"] as? Int == result["viewportWidth"] as? Int, "\(width): \(result)")
                #expect(result["noteScrollWidth"] as? Int == result["viewportWidth"] as? Int, "\(width): \(result)")
            }
            let hostile = try #require(report["hostile"] as? [String: Any])
            #expect(hostile["alert"] == nil)
            #expect(hostile["shownAsText"] as? Bool == true, "\(hostile)")
            #expect(hostile["title"] as? String != "pwned")
            #expect(hostile["injectedImages"] as? Int == 0)
            let plain = try #require(report["noJavaScript"] as? [String: Any])
            #expect(plain["alexCount"] as? Int == 1, "the stanza has one Lenore: \(plain)")
            #expect(plain["copyVisible"] as? Bool == false)
            #expect(plain["downloads"] as? [String] == ["poem.txt", "poem.html", "poem.eml"])
        }
    }
}
