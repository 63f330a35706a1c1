import Foundation
import SnapPoem
import Testing

@Suite("Decoding refuses bad input with an error that names the file")
struct ImageDecoderErrorTests {
    @Test("A missing file")
    func missingFile() throws {
        let path = "/nonexistent/folder/Lenore.png"
        #expect(throws: SnapPoemError.fileNotFound(path: path)) {
            try ImageDecoder.decode(fileAt: path)
        }
    }

    @Test("A zero-byte file")
    func emptyFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("empty.png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: SnapPoemError.emptyFile(path: path)) {
            try ImageDecoder.decode(fileAt: path)
        }
    }

    @Test("A text file named .png")
    func textFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("poem.png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("Ah, broken is the golden bowl!\n".utf8))
        #expect(throws: SnapPoemError.unsupportedImageFormat(path: path, detail: "the data is plain text")) {
            try ImageDecoder.decode(fileAt: path)
        }
    }

    @Test("Every error message is one line naming the file")
    func messagesAreOneLine() {
        let errors: [SnapPoemError] = [
            .fileNotFound(path: "a.png"), .emptyFile(path: "a.png"),
            .unsupportedImageFormat(path: "a.png", detail: "the data is plain text"),
            .corruptImage(path: "a.png", format: "PNG"),
            .imageTooLarge(path: "a.png", width: 40000, height: 40000, limit: "150 megapixels"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("a.png: "))
        }
    }
}
