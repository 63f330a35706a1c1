import Foundation
import SnapPoem
import Testing

@Suite("The pipeline from URLs and bytes in memory, and the one-call convenience")
struct ScannerInputsTests {
    static let stanza = "formats/stanza-rgb8.png"

    @Test("A file URL, the same file's bytes and its path give the same poem")
    func urlDataAndPathAgree() async throws {
        let scanner = try await SharedScanner.get()
        let path = Fixtures.sample(Self.stanza)
        let fromPath = try await scanner.scan(fileAt: path)
        let fromURL = try await scanner.scan(fileAt: URL(fileURLWithPath: path))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromData = try await scanner.scan(imageData: bytes, name: "upload.png")
        #expect(fromURL.text == fromPath.text)
        #expect(fromData.text == fromPath.text)
        #expect(fromData.imageFacts == fromPath.imageFacts)
        #expect(fromURL.source == path)
        #expect(fromData.source == "upload.png")
        #expect(fromData.timings.decode > .zero)
        #expect(fromPath.text.contains("golden bowl"))
    }

    @Test("Bytes get the checks a file gets, and errors name the bytes as told")
    func dataIsChecked() async throws {
        let scanner = try await SharedScanner.get()
        func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample(name))) }
        await #expect(throws: SnapPoemError.emptyFile(path: "upload")) {
            try await scanner.scan(imageData: Data(), name: "upload")
        }
        await #expect(throws: SnapPoemError.unsupportedImageFormat(path: "upload", detail: "the data is plain text")) {
            try await scanner.scan(imageData: Data("Ah, broken is the golden bowl!\n".utf8), name: "upload")
        }
        let huge = try bytes("huge-header.png")
        await #expect {
            try await scanner.scan(imageData: huge, name: "upload")
        } throws: { error in
            guard case .imageTooLarge(let path, _, _, _) = error as? SnapPoemError else { return false }
            return path == "upload"
        }
        let truncated = try bytes("formats/truncated.png")
        await #expect(throws: SnapPoemError.corruptImage(path: "image", format: "PNG")) {
            try await scanner.scan(imageData: truncated)
        }
    }

    @Test("The limits of the configuration hold for bytes before anything is decoded")
    func dataLimits() async throws {
        var configuration = ScanConfiguration()
        configuration.imageLimits = ImageLimits(maxPixels: 10_000, maxSide: 100)
        let scanner = try await PoemScanner(configuration: configuration)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample(Self.stanza)))
        await #expect {
            try await scanner.scan(imageData: bytes, name: "stanza")
        } throws: { error in
            guard case .imageTooLarge(let path, let width, let height, _) = error as? SnapPoemError else { return false }
            return path == "stanza" && width > 100 && height > 0
        }
    }

    @Test("A URL that is not a file URL is refused, and a missing file is named by its path")
    func urlErrors() async throws {
        let scanner = try await SharedScanner.get()
        await #expect {
            try await scanner.scan(fileAt: URL(string: "https://example.org/Lenore.png")!)
        } throws: { error in
            guard case .unreadableFile(let path, let reason) = error as? SnapPoemError else { return false }
            return path == "https://example.org/Lenore.png" && reason.contains("Data")
        }
        await #expect(throws: SnapPoemError.fileNotFound(path: "/nonexistent/Lenore.png")) {
            try await scanner.scan(fileAt: URL(fileURLWithPath: "/nonexistent/Lenore.png"))
        }
        #expect(throws: SnapPoemError.fileNotFound(path: "/nonexistent/Lenore.png")) {
            try ImageDecoder.decode(fileAt: URL(fileURLWithPath: "/nonexistent/Lenore.png"))
        }
    }

    @Test("One call reads and personalises an image")
    func oneCall() async throws {
        let url = URL(fileURLWithPath: Fixtures.sample(Self.stanza))
        let poem = try await PoemScanner.scan(fileAt: url, replacing: ["Lenore": "Alex", "Guy De Vere": "Sam"])
        #expect(poem.text.contains("low lies thy love, Alex!"))
        #expect(poem.text.contains("And, Sam, hast thou no tear?"))
        #expect(!poem.text.contains("Lenore"))
        #expect(poem.personalized.changes.map(\.replacement) == ["Sam", "Alex"])
    }

    @Test("A replacement literal keeps its order and means the same as the explicit form")
    func replacementLiteral() {
        let literal: ReplacementSet = ["Lenore": "Alex", "Alex": "Sam", "Guy De Vere": ""]
        let explicit = ReplacementSet([
            Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "Alex", replaceWith: "Sam"),
            Replacement(find: "Guy De Vere", replaceWith: ""),
        ])
        #expect(literal == explicit)
        #expect(literal.apply(to: "Lenore and Alex").text == "Alex and Sam")
        #expect(ReplacementSet().isEmpty)
        #expect(ReplacementSet() == ReplacementSet([]))
    }

    @Test("PoemScanner(replacing:languages:) starts an engine with those languages")
    func replacingInitializer() async throws {
        let scanner = try await PoemScanner(replacing: ["Lenore": "Alex"], languages: LanguageSet(parsing: "eng"))
        #expect(scanner.configuration.replacements == ["Lenore": "Alex"])
        #expect(scanner.configuration.engine.languages.codes == ["eng"])
        #expect(scanner.configuration.preprocessing == ScanConfiguration().preprocessing)
        await #expect(throws: SnapPoemError.self) {
            try await PoemScanner(replacing: ["Lenore": "Alex"], languages: LanguageSet(parsing: "xx_missing"))
        }
    }
}
