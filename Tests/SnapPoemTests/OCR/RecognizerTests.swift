import Foundation
import SnapPoem
import Synchronization
import Testing

/// Decodes and prepares a sample the way the pipeline does.
func preparedSample(_ name: String, scaling: ScalingMode = .maxDimension(4000)) throws -> PoemImage {
    let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(name))
    return try ImagePreprocessor.prepare(image, options: PreprocessingOptions(scaling: scaling))
}

@Suite("Recognizer: structured results and Tesseract options")
struct RecognizerTests {
    @Test("Layout: blocks, lines and words with boxes inside the image and confidences 0-100")
    func structuredResults() async throws {
        let image = try preparedSample("formats/stanza-rgb8.png")
        let page = try await Recognizer().recognize(image)
        let truthLines = try Fixtures.groundTruth(for: "formats/stanza.png").split(separator: "\n")
        #expect(page.hasText)
        #expect(page.lines.count == truthLines.count)
        #expect(page.words.count == truthLines.reduce(0) { $0 + $1.split(separator: " ").count })
        for word in page.words {
            #expect((0...100).contains(word.confidence))
            #expect(word.boundingBox.left >= 0 && word.boundingBox.right <= image.width)
            #expect(word.boundingBox.top >= 0 && word.boundingBox.bottom <= image.height)
            #expect(word.boundingBox.width > 0 && word.boundingBox.height > 0)
        }
        let tops = page.lines.map(\.boundingBox.top)
        #expect(tops == tops.sorted(), "lines come top to bottom")
        #expect(page.meanConfidence > 80)
        #expect(characterErrorRate(page.lines.map(\.text).joined(separator: "\n"), truth: truthLines.joined(separator: "\n")) < 0.02)
    }

    @Test("hOCR, TSV with a header row, and ALTO renderings on request")
    func renderings() async throws {
        let image = try preparedSample("formats/stanza-rgb8.png")
        let page = try await Recognizer().recognize(image, options: RecognitionOptions(renderings: [.hocr, .tsv, .alto]))
        let hocr = try #require(page.renderings[.hocr])
        #expect(hocr.contains("class='ocr_page'"))
        #expect(hocr.contains("ocrx_word"))
        let tsv = try #require(page.renderings[.tsv]).split(separator: "\n")
        #expect(tsv.first == "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext")
        let wordRows = tsv.dropFirst().filter { $0.hasPrefix("5\t") }
        #expect(wordRows.count == page.words.count)
        #expect(wordRows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 12 })
        let alto = try #require(page.renderings[.alto])
        #expect(alto.contains("<Page"))
        #expect(alto.contains("CONTENT=\"golden\""))
        let plain = try await Recognizer().recognize(image)
        #expect(plain.renderings.isEmpty)
    }

    @Test("A page with no text is reported as such")
    func blankPage() async throws {
        let page = try await Recognizer().recognize(try preparedSample("blank.png"))
        #expect(!page.hasText)
        #expect(page.text.allSatisfy { $0.isWhitespace })
    }

    @Test("An allow list limits the characters; the next image on the same engine is unaffected")
    func allowList() async throws {
        let recognizer = try await Recognizer()
        let image = try preparedSample("formats/stanza-rgb8.png")
        let limited = try await recognizer.recognize(
            image, options: RecognitionOptions(allowedCharacters: "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        #expect(limited.hasText)
        #expect(!limited.text.contains { $0.isLowercase })
        let normal = try await recognizer.recognize(image)
        #expect(normal.text.contains("golden bowl"))
    }

    @Test("An allow list set with -c (an engine variable) holds for every image")
    func allowListVariable() async throws {
        let recognizer = try await Recognizer(
            configuration: EngineConfiguration(variables: ["tessedit_char_whitelist": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]))
        let page = try await recognizer.recognize(try preparedSample("formats/stanza-rgb8.png"))
        #expect(page.hasText)
        #expect(!page.text.contains { $0.isLowercase })
    }

    @Test("A region of interest recognises only that part")
    func region() async throws {
        let image = try preparedSample("formats/stanza-rgb8.png")
        let whole = try await Recognizer().recognize(image)
        let first = try #require(whole.lines.first).boundingBox
        let region = BoundingBox(left: 0, top: max(0, first.top - 8), right: image.width, bottom: first.bottom + 8)
        let page = try await Recognizer().recognize(
            image, options: RecognitionOptions(pageSegmentation: .singleBlock, regionOfInterest: region))
        #expect(page.lines.count == 1)
        #expect(page.text.contains("golden bowl"))
        #expect(!page.text.contains("Stygian"))
    }

    @Test("Progress rises to 100 and never goes back")
    func progress() async throws {
        let seen = Mutex<[Int]>([])
        _ = try await Recognizer().recognize(try preparedSample("formats/stanza-rgb8.png")) { percent in
            seen.withLock { $0.append(percent) }
        }
        let values = seen.withLock { $0 }
        #expect(values.last == 100)
        #expect(values == values.sorted())
        #expect(Set(values).count == values.count)
        #expect(values.count >= 3, "\(values)")
    }
}

@Suite("Engine start-up errors")
struct EngineStartupTests {
    @Test("A language without data lists what is available, even when combined with one that has data")
    func missingLanguage() async throws {
        for specification in ["deu", "eng+deu"] {
            let languages = try LanguageSet(parsing: specification)
            await #expect(throws: SnapPoemError.self) {
                _ = try await Recognizer(configuration: EngineConfiguration(languages: languages))
            }
            do {
                _ = try await Recognizer(configuration: EngineConfiguration(languages: languages))
            } catch {
                guard case .languageNotAvailable(let language, _, let available) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(language == "deu")
                #expect(available == ["eng", "fra", "osd"])
            }
        }
    }

    @Test(
        "Malformed language specifications are refused before Tesseract sees them",
        arguments: ["", "eng+", "+fra", "eng++fra", "eng fra", "../eng", "eng+eng"])
    func badLanguage(specification: String) {
        #expect(throws: SnapPoemError.self) { try LanguageSet(parsing: specification) }
    }

    @Test(
        "Unknown variables and values of the wrong type are errors",
        arguments: [("no_such_variable", "1"), ("preserve_interword_spaces", "banana"), ("tessedit_pageseg_mode", "x")])
    func badVariable(name: String, value: String) async {
        await #expect(throws: SnapPoemError.self) {
            _ = try await Recognizer(configuration: EngineConfiguration(variables: [name: value]))
        }
    }

    @Test("A known variable with a fitting value is accepted")
    func goodVariable() async throws {
        _ = try await Recognizer(
            configuration: EngineConfiguration(variables: ["preserve_interword_spaces": "1", "tessedit_pageseg_mode": "6"]))
    }

    @Test("The legacy engine is refused with a clear reason when the data is LSTM-only")
    func legacyEngine() async {
        do {
            _ = try await Recognizer(configuration: EngineConfiguration(engineMode: .legacy))
            Issue.record("the legacy engine started on LSTM-only data")
        } catch {
            #expect(error.description.contains("legacy engine needs traineddata that includes it"))
        }
    }

    @Test("A tessdata folder without models is an error naming it")
    func emptyTessdata() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: SnapPoemError.tessdataNotFound(searched: [folder.path])) {
            _ = try await Recognizer(configuration: EngineConfiguration(tessdataDirectory: folder.path))
        }
    }
}
