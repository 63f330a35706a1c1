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

    /// The value of Tesseract's process-wide variable `name`, as any handle sees it (a fresh
    /// one needs a variable set to have its Tesseract).
    private static func global(_ name: String) throws -> String {
        let handle = try #require(TessBaseAPICreate())
        defer { TessBaseAPIDelete(handle) }
        TessBaseAPISetVariable(handle, "tessedit_pageseg_mode", "3")
        var value: Int32 = 0
        if TessBaseAPIGetBoolVariable(handle, name, &value) != 0 { return String(value) }
        return String(cString: try #require(TessBaseAPIGetStringVariable(handle, name), "\(name) is not a variable"))
    }

    @Test("The one global the library sets, for every engine once the first starts: no table finder, whose cost no bound holds")
    func tableFinderOff() async throws {
        _ = try await Recognizer()
        #expect(try Self.global("textord_tabfind_find_tables") == "0")
    }

    @Test("The quiet defaults a program opts into: debug_file /dev/null and no fixed-pitch test, for every engine")
    func quietDefaults() async throws {
        ProcessSettings.applyQuietDefaults()
        _ = try await Recognizer()
        #expect(try Self.global("debug_file") == "/dev/null")
        #expect(try Self.global("textord_all_prop") == "1")
        #expect(try Self.global("textord_tabfind_find_tables") == "0")
    }

    @Test("An image Tesseract would write to (four samples, from a PNG) is read from a private copy and stays as it was")
    func sharedImageNeverWritten() async throws {
        // The decoder removes alpha itself; read the file with Leptonica to keep it.
        let pix = try #require(PixImage.taking(pixRead(Fixtures.sample("formats/stanza-alpha.png"))))
        try #require(pixGetSpp(pix.pointer) == 4 && pixGetInputFormat(pix.pointer) == Int32(IFF_PNG))
        let reference = try #require(PixImage.taking(pixCopy(nil, pix.pointer)))
        let page = try await Recognizer().recognize(PoemImage(pix: pix))
        #expect(page.hasText)
        var same: Int32 = 0
        #expect(pixEqual(pix.pointer, reference.pointer, &same) == 0 && same == 1, "the caller's pixels are unchanged")
        #expect(pixGetSpp(pix.pointer) == 4, "the alpha channel is still there")
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

    @Test("A time limit reached before any text still gives complete, empty hOCR, TSV and ALTO pages")
    func timedOutRenderings() async throws {
        let recognizer = try await Recognizer()
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-phone-size.jpg"))
        let page = try await recognizer.recognize(
            image, options: RecognitionOptions(timeLimit: .milliseconds(1), renderings: [.hocr, .tsv, .alto]))
        #expect(page.timedOut)
        #expect(Set(page.renderings.keys) == [.hocr, .tsv, .alto])
        for rendering in page.renderings.values { #expect(!rendering.isEmpty) }
        #expect(page.renderings[.tsv]?.hasPrefix(TesseractEngine.tsvHeader + "1\t1\t") == true)
    }

    @Test("The empty renderings are shaped as Tesseract writes a blank page")
    func emptyRenderings() {
        #expect(
            PageRenderingFormat.tsv.emptyPage(width: 200, height: 100, dotsPerInch: 300)
                == TesseractEngine.tsvHeader + "1\t1\t0\t0\t0\t0\t0\t0\t200\t100\t-1\t\n")
        #expect(
            PageRenderingFormat.hocr.emptyPage(width: 200, height: 100, dotsPerInch: 300)
                == "  <div class='ocr_page' id='page_1' title='image \"unknown\"; bbox 0 0 200 100; ppageno 0; scan_res 300 300'>\n  </div>\n"
        )
        #expect(
            PageRenderingFormat.alto.emptyPage(width: 200, height: 100, dotsPerInch: 300).contains("<Page WIDTH=\"200\" HEIGHT=\"100\""))
    }

    /// A tessdata folder with the real eng and fra models and a damaged osd model.
    static func tessdataWithBrokenOSD() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        for language in ["eng", "fra"] {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("\(language).traineddata"),
                withDestinationURL: Fixtures.root.appendingPathComponent("tessdata/\(language).traineddata"))
        }
        try Data("not a model".utf8).write(to: folder.appendingPathComponent("osd.traineddata"))
        return folder
    }

    @Test("Orientation detection that cannot load its model says so every time, rather than going quiet")
    func orientationFailureReported() async throws {
        let folder = try Self.tessdataWithBrokenOSD()
        defer { try? FileManager.default.removeItem(at: folder) }
        let detector = try OrientationDetector(tessdataDirectory: folder.path)
        let image = try #require(PoemImage.filled(width: 200, height: 100))
        for _ in 0..<2 {
            await #expect(throws: SnapPoemError.self) { _ = try await detector.detect(image) }
        }
        // In the pipeline: a page standing on end that does not read well turned the way its
        // lines' starts say asks for detection; the failure is a note. Mirrored top to bottom,
        // the page reads as garbage every way round.
        var configuration = ScanConfiguration()
        configuration.engine.tessdataDirectory = folder.path
        let scanner = try await PoemScanner(configuration: configuration)
        let (onItsSide, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("photo-rotated-270.png"))
        let mirrored = try #require(PixImage.taking(pixFlipTB(nil, onItsSide.pix.pointer)))
        let poem = try await scanner.scan(PoemImage(pix: mirrored), name: "mirrored")
        #expect(poem.preprocessingReport.notes.contains { $0.hasPrefix("orientation detection could not run (") })
        // The same page, not mirrored, is turned by its lines' starts without detection.
        let turned = try await scanner.scan(fileAt: Fixtures.sample("photo-rotated-270.png"))
        #expect(turned.preprocessingReport.rotation == 90)
        #expect(!turned.preprocessingReport.notes.contains { $0.hasPrefix("orientation detection could not run (") })
        // A page upside down needs no detection: it is read upside down and turned all the same.
        let upsideDown = try await scanner.scan(fileAt: Fixtures.sample("photo-rotated-180.png"))
        #expect(upsideDown.preprocessingReport.rotation == 180)
        #expect(!upsideDown.preprocessingReport.notes.contains { $0.hasPrefix("orientation detection could not run (") })
    }
}
