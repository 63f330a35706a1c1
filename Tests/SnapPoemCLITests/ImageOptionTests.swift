import Foundation
import SnapPoem
import Testing

@testable import SnapPoemCLI

@Suite("Image pipeline options on the command line")
struct ImageOptionTests {
    static func options(_ arguments: [String]) throws -> CommandOptions {
        try CommandOptions(try ParsedArguments.parse(arguments))
    }

    @Test("Defaults: automatic size, flatten, orientation, deskew and inversion on")
    func defaults() throws {
        let preprocessing = try Self.options(["a.png"]).scan.preprocessing
        #expect(preprocessing == PreprocessingOptions())
        #expect(preprocessing.scaling == .automatic && preprocessing.filter == .flatten)
        #expect(preprocessing.detectsOrientation && preprocessing.deskews && preprocessing.invertsLightText)
    }

    @Test(
        "--max-dimension takes N, auto or none",
        arguments: [
            ("640", ScalingMode.maxDimension(640)), ("16", .maxDimension(16)), ("auto", .automatic), ("none", .original),
        ])
    func maxDimension(value: String, mode: ScalingMode) throws {
        #expect(try Self.options(["a.png", "--max-dimension", value]).scan.preprocessing.scaling == mode)
    }

    @Test("--filter takes every filter by name", arguments: ImageFilter.allCases)
    func filter(filter: ImageFilter) throws {
        #expect(try Self.options(["a.png", "--filter", filter.rawValue]).scan.preprocessing.filter == filter)
    }

    @Test("--no-rotate, --no-deskew and --no-invert switch their step off")
    func switches() throws {
        let preprocessing = try Self.options(["a.png", "--no-rotate", "--no-deskew", "--no-invert"]).scan.preprocessing
        #expect(!preprocessing.detectsOrientation && !preprocessing.deskews && !preprocessing.invertsLightText)
    }

    @Test(
        "Bad image option values are usage errors, exit 64",
        arguments: [
            ["a.png", "--max-dimension", "15"], ["a.png", "--max-dimension", "Auto"], ["a.png", "--filter", "adaptative"],
            ["a.png", "b.png", "--save-preprocessed", "x.png"], ["a.png", "--save-preprocessed", "a.png"],
            ["a.png", "--save-preprocessed", "-"], ["a.png", "-o", "x.png", "--save-preprocessed", "x.png"],
            ["a.png", "--no-deskew=yes"],
        ])
    func badValues(arguments: [String]) async {
        let result = await CapturedRun.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.error)")
        #expect(result.error.hasPrefix("snap-poem: error: "))
    }

    @Test("--save-preprocessed writes what Tesseract saw, atomically, never over a file without --force")
    func savePreprocessed() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("seen.png").path
        let input = Fixtures.sample("photo-low-resolution.png")
        let first = await CapturedRun.run([input, "--save-preprocessed", saved])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("Lenore\n"))
        let (image, facts) = try ImageDecoder.decode(fileAt: saved)
        #expect(facts.format == .png)
        #expect((image.width, image.height) == (1816, 1481))  // 617×503 scaled ×2.94 to 24 px letters
        #expect(image.bitsPerPixel == 8)

        let second = await CapturedRun.run([input, "--save-preprocessed", saved])
        #expect(second.status == 73)
        #expect(second.error.contains("\(saved): output not written (the file exists, and replacing it was not asked for)"))
        let forced = await CapturedRun.run([input, "--save-preprocessed", saved, "--force", "--max-dimension", "300"])
        #expect(forced.status == 0)
        let (smaller, _) = try ImageDecoder.decode(fileAt: saved)
        #expect((smaller.width, smaller.height) == (300, 245))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["seen.png"])
    }

    @Test("Warnings from decoding and preprocessing reach stderr, naming the file")
    func warnings() async throws {
        let input = Fixtures.sample("formats/stanza-animated.webp")
        let result = await CapturedRun.run([input])
        #expect(result.status == 0)
        #expect(result.error == "snap-poem: warning: \(input): the WebP holds 2 frames; only the first is read\n")
    }
}
