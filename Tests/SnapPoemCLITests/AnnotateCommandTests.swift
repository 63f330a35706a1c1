import CTesseract
import Foundation
import Testing

@testable import SnapPoem
@testable import SnapPoemCLI

/// `--annotate FILE.png` and `--side-by-side` on the command line: what they write, when they
/// refuse, and how they behave in a batch.
@Suite("--annotate and --side-by-side on the command line")
struct AnnotateCommandTests {
    @Test(
        "--annotate and --side-by-side refuse what they cannot do, exit 64",
        arguments: [
            (["a.png", "b.png", "--annotate", "x.png"], "'--annotate x.png' takes one image, but 2 were given"),
            (["a.png", "--annotate", "-"], "must name a new file"), (["a.png", "--annotate", "a.png"], "must name a new file"),
            (["a.png", "-o", "x.txt", "--annotate", "x.txt"], "must name a new file"),
            (["a.png", "--save-preprocessed", "x.png", "--annotate", "x.png"], "must name a new file"),
            (["a.png", "--annotate", "x.jpg"], "writes a PNG image"),
            (["a.png", "--side-by-side"], "'--side-by-side' lays out an HTML page"),
            (["a.png", "--side-by-side", "--format", "json"], "'--side-by-side' lays out an HTML page"),
            (["a.png", "--side-by-side", "--mailto"], "'--side-by-side' lays out an HTML page"),
        ])
    func refusals(arguments: [String], message: String) async {
        let result = await CapturedRun.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.error)")
        #expect(result.error.hasPrefix("snap-poem: error: "), "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("The options keep the upright image only when something draws on it")
    func keepsTheImageOnlyWhenAsked() throws {
        func options(_ arguments: [String]) throws -> CommandOptions { try CommandOptions(try ParsedArguments.parse(arguments)) }
        #expect(try !options(["a.png"]).scan.keepsUprightImage)
        #expect(try options(["a.png", "--annotate", "x.PNG"]).scan.keepsUprightImage)
        #expect(try options(["a.png", "--annotate", "x.PNG"]).annotate == "x.PNG")
        let page = try options(["a.png", "-o", "page.html", "--side-by-side"])
        #expect(page.scan.keepsUprightImage && page.export.sideBySide)
    }

    @Test("--annotate writes the upright photo (EXIF turn applied, full size) as a colour PNG, and never over a file without --force")
    func writesTheAnnotation() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let annotated = folder.appendingPathComponent("seen.png").path
        let input = Fixtures.sample("photo-exif-rotated.jpg")
        let first = await CapturedRun.run([input, "-r", "Lenore=Alex", "--annotate", annotated])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("Alex\n"), "the poem still goes to standard output")
        let (image, facts) = try ImageDecoder.decode(fileAt: annotated)
        #expect(facts.format == .png)
        // Stored 1383×1697 with EXIF orientation 6: upright it is 1697×1383.
        #expect((image.width, image.height) == (1697, 1383))
        #expect(image.bitsPerPixel == 32)
        // The title's replaced word carries the replacement's green on its box.
        var green = 0
        for y in stride(from: 100, to: 260, by: 1) {
            for x in stride(from: 700, to: 1000, by: 1) where try colour(image, x, y) == AnnotationStyle.standard.replacedColor {
                green += 1
            }
        }
        #expect(green > 200, "\(green) pixels of the replacement's green round the title")

        let second = await CapturedRun.run([input, "--annotate", annotated])
        #expect(second.status == 73)
        #expect(second.error.contains("\(annotated): output not written (the file exists, and replacing it was not asked for)"))
        #expect(second.output.isEmpty, "refused before the image was read")
        let forced = await CapturedRun.run([input, "--annotate", annotated, "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["seen.png"])
    }

    @Test("A folder of two images with --annotate is a usage error that points to the batch page")
    func folderOfTwo() async throws {
        let folder = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": BatchFixtures.stanza])
        defer { try? FileManager.default.removeItem(at: folder) }
        let annotated = folder.appendingPathComponent("seen.png").path
        let result = await CapturedRun.run([folder.path, "--annotate", annotated])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("takes one image, but 2 were found"), "\(result.error)")
        #expect(result.error.contains("--format html --side-by-side --output-dir DIR"))
        #expect(!FileManager.default.fileExists(atPath: annotated))
    }

    @Test("A batch with --format html --side-by-side --output-dir writes a page per image, each with its annotated photo")
    func batchOfPages() async throws {
        let folder = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        let result = try await BinaryRun.run([
            folder.path, "--format", "html", "--side-by-side", "--output-dir", output.path, "--jobs", "2",
        ])
        #expect(result.status == 0, "\(result.error)")
        for name in ["a.html", "b.html"] {
            let page = try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8)
            #expect(page.contains("<img src=\"data:image/jpeg;base64,"), "\(name)")
            #expect(page.contains("class=\"reading\""), "\(name)")
            #expect(page.contains("class=\"reading-label\""), "\(name): line numbers on the photo")
        }
    }
}

/// The colour of one pixel of a colour image.
private func colour(_ image: PoemImage, _ x: Int, _ y: Int) throws -> RGBColor {
    var red: Int32 = 0, green: Int32 = 0, blue: Int32 = 0
    try #require(pixGetRGBPixel(image.pix.pointer, Int32(x), Int32(y), &red, &green, &blue) == 0)
    return RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
}
