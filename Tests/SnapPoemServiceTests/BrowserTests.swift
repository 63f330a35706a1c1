import Foundation
import SnapPoemTestSupport
import Testing

/// The page in a real browser: Debian's Chromium and chromium-driver, driven by Selenium
/// (`Browser/page_test.py`, from the virtual environment `make deps-service` creates),
/// against a real `snap-poem serve`. Screenshots go to `.build/screenshots/`. Chromium is
/// installed by `make test-system` (`make deps-browser`); without it the suite is skipped.
@Suite("The page in Chromium", SystemTool.chromium.required)
struct BrowserTests {
    /// The axe-core violations a look found that are serious or critical.
    static func serious(_ look: Any?) -> [String] {
        ((look as? [[String: Any]]) ?? [[String: Any]]()).compactMap { violation in
            let impact = violation["impact"] as? String ?? ""
            guard impact == "serious" || impact == "critical" else { return nil }
            return "\(violation["id"] ?? "?") (\(impact)): \(violation["targets"] ?? "") \(violation["details"] ?? "")"
        }
    }

    @Test(
        "The phone as people use it: fix a misread word and share it, never choose the photo twice, with and without JavaScript; axe-core finds nothing serious"
    )
    func phoneAsPeopleUseIt() async throws {
        let python = Fixtures.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "\(python) is missing: run 'make deps-service' (selenium, axe-selenium-python)")
        let screenshots = Fixtures.root.appendingPathComponent(".build/screenshots").path
        try await ServerProcess.with(["--jobs", "2"]) { server in
            let run = try await RawHTTPClient.onThread { () -> (Int32, Data) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = [
                    Fixtures.root.appendingPathComponent("Tests/SnapPoemServiceTests/Browser/page_test.py").path,
                    "--url", "http://127.0.0.1:\(server.port)/", "--phone-image", Fixtures.sample("photo-rotated-5deg.jpg"),
                    "--image", Fixtures.sample("Lenore.png"), "--small-image", Fixtures.sample(Fixtures.stanza),
                    "--screenshots", screenshots, "--timeout", "300",
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
                DispatchQueue.global().asyncAfter(deadline: .now() + 1200) {
                    if process.isRunning { process.terminate() }
                }
                let errorReader = Thread { _ = error.fileHandleForReading.readDataToEndOfFile() }
                errorReader.start()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, data)
            }
            #expect(run.0 == 0, "page_test.py exited \(run.0): \(String(decoding: run.1, as: UTF8.self))")
            let report = try #require(
                try JSONSerialization.jsonObject(with: run.1) as? [String: Any], "\(String(decoding: run.1, as: UTF8.self))")
            #expect(report["error"] == nil, "\(report)")

            // Phone (the tilted photo, two Lenores) and desktop (Lenore.png, three; with what was read).
            for (width, names) in [("phone", 2), ("desktop", 3)] {
                let result = try #require(report[width] as? [String: Any], "\(report)")
                #expect(result["alexCount"] as? Int == names, "\(width): \(result["noteText"] ?? "")")
                #expect(result["lenoreCount"] as? Int == 0, "\(width)")
                #expect(result["copyVisible"] as? Bool == true, "\(width): the page's script ran under its policy")
                #expect(result["updateVisible"] as? Bool == false, "\(width): with JavaScript the note follows the editor by itself")
                #expect(result["editorHoldsPoem"] as? Bool == true, "\(width): the editor holds the personalised poem")
                #expect(result["downloads"] as? [String] == ["poem.txt", "poem.html", "poem.eml"], "\(width)")
                #expect(result["mailto"] as? Bool == true)
                #expect((result["policyViolations"] as? [String])?.isEmpty == true, "\(width): \(result["policyViolations"] ?? "")")
                // Nothing wider than the screen: no sideways scrolling on a phone.
                #expect(result["pageWidth"] as? Int == result["viewportWidth"] as? Int, "\(width): \(result)")
                #expect(result["noteScrollWidth"] as? Int == result["viewportWidth"] as? Int, "\(width): \(result)")
                #expect(Self.serious(result["axeForm"]).isEmpty, "\(width), the form: \(Self.serious(result["axeForm"]))")
                #expect(Self.serious(result["axeNote"]).isEmpty, "\(width), the note: \(Self.serious(result["axeNote"]))")
            }
            let phone = try #require(report["phone"] as? [String: Any])
            let desktop = try #require(report["desktop"] as? [String: Any])
            #expect(desktop["showsReading"] as? Bool == true)
            #expect(desktop["axeNoteAtPhoneWidth"] != nil)
            #expect(
                Self.serious(desktop["axeNoteAtPhoneWidth"]).isEmpty,
                "what was read, at phone width: \(Self.serious(desktop["axeNoteAtPhoneWidth"]))")
            // Headless Chromium on Linux has no Web Share: the button stays hidden; the phone's is stubbed.
            #expect(desktop["shareVisible"] as? Bool == false)
            #expect(phone["shareVisible"] as? Bool == true)
            // The misread word is marked, listed, and fixed where the person taps it.
            #expect((phone["marked"] as? [String])?.contains("bow!!") == true, "\(phone["marked"] ?? "")")
            let edit = try #require(phone["edit"] as? [String: Any], "\(phone)")
            #expect(edit["error"] == nil, "\(edit)")
            #expect(edit["word"] as? String == "bow!!", "\(edit)")
            #expect(edit["selected"] as? String == "bow!!", "tapping the word selects it in the editor: \(edit)")
            #expect(edit["editorFocused"] as? Bool == true)
            for key in ["noteHasFix", "txtHasFix", "htmlHasFix", "emlHasFix", "mailtoHasFix", "wordFixed"] {
                #expect(edit[key] as? Bool == true, "\(key): \(edit)")
            }
            // The edit reaches navigator.share: the poem as text, the love note as a file.
            #expect(edit["sharedTextHasFix"] as? Bool == true, "\(edit)")
            #expect(edit["sharedTextHasAlex"] as? Bool == true, "\(edit)")
            #expect((edit["sharedFiles"] as? [[String]]) == [["poem.html", "text/html"]], "\(edit)")
            #expect(edit["sharedFileHasFix"] as? Bool == true, "\(edit)")
            #expect(edit["shareStatus"] as? String == "Shared.")
            // A download taken at once after typing waits for the edit.
            #expect(edit["downloadedAtOnceHasEdit"] as? Bool == true, "\(edit)")

            // The mistake, then the fix, with JavaScript.
            let mistake = try #require(report["mistake"] as? [String: Any])
            #expect(mistake["refusedInPage"] as? Bool == true, "half a pair of names is refused before sending: \(mistake)")
            #expect(mistake["alert"] as? String == "Type the name that is in the poem too, or leave both names empty.")
            #expect(mistake["focused"] as? String == "find")
            #expect(mistake["fileStillChosen"] as? Int == 1)
            #expect(mistake["serverAlert"] as? String == "Type the name that is in the poem too, or leave both names empty.")
            #expect((mistake["keptText"] as? String)?.contains("is still here") == true, "\(mistake)")
            #expect(mistake["keptInFileInput"] as? String == "stanza-rgb8.png", "the photo is back in the file input: \(mistake)")
            #expect(mistake["keptPreviewLoaded"] as? Bool == true)
            #expect(mistake["replaceWithKept"] as? String == "Alex")
            #expect(mistake["invalidFocused"] as? String == "find")
            #expect(Self.serious(mistake["axeKept"]).isEmpty, "the form after a mistake: \(Self.serious(mistake["axeKept"]))")
            #expect(mistake["alexCount"] as? Int == 1, "the fix went through without choosing the photo again: \(mistake)")
            #expect((mistake["policyViolations"] as? [String])?.isEmpty == true, "\(mistake)")

            let hostile = try #require(report["hostile"] as? [String: Any])
            #expect(hostile["alert"] == nil)
            #expect(hostile["shownAsText"] as? Bool == true, "\(hostile)")
            #expect(hostile["editorHoldsIt"] as? Bool == true, "\(hostile)")
            #expect(hostile["title"] as? String != "pwned")
            #expect(hostile["injectedImages"] as? Int == 0)

            // Without JavaScript: the mistake, the fix without the photo again, an edit posted back.
            let plain = try #require(report["noJavaScript"] as? [String: Any])
            #expect(plain["alert"] as? String == "Type the name that is in the poem too, or leave both names empty.")
            #expect((plain["keptText"] as? String)?.contains("is still here") == true, "\(plain)")
            #expect(plain["fileInputEmpty"] as? Bool == true)
            #expect(plain["alexCount"] as? Int == 1, "the stanza has one Lenore: \(plain)")
            #expect(plain["copyVisible"] as? Bool == false)
            #expect(plain["shareVisible"] as? Bool == false)
            #expect(plain["updateVisible"] as? Bool == true)
            #expect(plain["downloads"] as? [String] == ["poem.txt", "poem.html", "poem.eml"])
            for key in ["editedTxt", "editedHtml", "editedEml", "editedMailto"] {
                #expect(plain[key] as? Bool == true, "\(key): \(plain)")
            }
            #expect(plain["editedAlexCount"] as? Int == 1)

            let french = try #require(report["french"] as? [String: Any])
            #expect(french["lang"] as? String == "fr")
            #expect(french["heading"] as? String == "Un poème pour votre amour")
            #expect(Self.serious(french["axeForm"]).isEmpty, "\(Self.serious(french["axeForm"]))")
        }
    }
}
