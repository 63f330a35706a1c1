import CTesseract
import Foundation
import Testing

@testable import SnapPoem

@Suite("Tesseract's process-wide state, failures and limits")
struct EngineHardeningTests {
    @Test("Process-wide variables are learnt from Tesseract itself: globals in, per-engine variables out")
    func processWideVariables() throws {
        try LibrarySetup.ensureTesseract()
        let names = LibrarySetup.processWideVariables
        for global in ["debug_file", "textord_min_xheight", "textord_heavy_nr", "classify_min_slope", "log_level"] {
            #expect(names.contains(global), "\(global) is a Tesseract global")
        }
        for member in ["preserve_interword_spaces", "tessedit_char_whitelist", "tessedit_pageseg_mode", "load_system_dawg"] {
            #expect(!names.contains(member), "\(member) belongs to each engine")
        }
    }

    @Test(
        "A -c of a process-wide variable is refused with the reason, and changes nothing", arguments: ["debug_file", "textord_min_xheight"])
    func processWideVariableRefused(name: String) async throws {
        try LibrarySetup.ensureTesseract()
        do {
            _ = try await Recognizer(configuration: EngineConfiguration(variables: [name: "8"]))
            Issue.record("\(name) was accepted")
        } catch {
            #expect(
                error
                    == .invalidEngineVariable(
                        name: name,
                        reason:
                            "it is process-wide in Tesseract (shared by every engine in this process), so snap-poem does not set it for one engine"
                    ))
        }
    }

    @Test("debug_file is /dev/null for every engine, set once before the first one starts")
    func debugFileSetOnce() async throws {
        _ = try await Recognizer()
        // Any handle sees the global; a fresh one needs a variable set to have its Tesseract.
        let handle = try #require(TessBaseAPICreate())
        defer { TessBaseAPIDelete(handle) }
        TessBaseAPISetVariable(handle, "tessedit_pageseg_mode", "3")
        let value = try #require(TessBaseAPIGetStringVariable(handle, "debug_file"))
        #expect(String(cString: value) == "/dev/null")
    }

    @Test("A resolution outside 70–2400 dpi is an error from the library, never a trap", arguments: [0, 69, 2401, Int.max, Int.min])
    func badResolution(dotsPerInch: Int) async throws {
        let recognizer = try await Recognizer()
        let image = try #require(PoemImage.filled(width: 64, height: 64))
        await #expect(
            throws: SnapPoemError.invalidOption(option: "dotsPerInch", reason: "\(dotsPerInch) is outside 70...2400 dots per inch")
        ) {
            _ = try await recognizer.recognize(image, options: RecognitionOptions(dotsPerInch: dotsPerInch))
        }
    }
}
