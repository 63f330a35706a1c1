import SnapPoem
import Testing

@Suite("PoemLayout: lines and stanzas from the page's geometry")
struct PoemLayoutTests {
    /// A page of lines at the given tops, each line's words at single spaces, and Tesseract's
    /// own text for it as `written`.
    static func page(_ lines: [(top: Int, words: [String])], written: String) -> RecognizedPage {
        let recognized = lines.map { line in
            RecognizedLine(
                words: line.words.enumerated().map { index, text in
                    RecognizedWord(
                        text: text, confidence: 90,
                        boundingBox: BoundingBox(left: 10 + index * 100, top: line.top, right: 90 + index * 100, bottom: line.top + 30))
                },
                boundingBox: BoundingBox(left: 10, top: line.top, right: 600, bottom: line.top + 30), confidence: 90)
        }
        let block = RecognizedBlock(
            paragraphs: [RecognizedParagraph(lines: recognized, boundingBox: BoundingBox(left: 0, top: 0, right: 600, bottom: 600))],
            boundingBox: BoundingBox(left: 0, top: 0, right: 600, bottom: 600))
        return RecognizedPage(text: written, meanConfidence: 90, blocks: [block], timedOut: false, imageWidth: 640, imageHeight: 640)
    }

    static let roses = page(
        [
            (10, ["Roses", "are", "red"]), (50, ["Violets", "are", "blue"]), (170, ["Sugar", "is", "sweet"]),
            (210, ["And", "so", "are", "you"]),
        ],
        written: "Roses   are red\n\nViolets are    blue\nSugar is sweet\n\nAnd so  are you\n")

    @Test("A gap much larger than the line pitch is a stanza break; words are joined by single spaces")
    func stanzas() {
        #expect(PoemLayout.text(of: Self.roses) == "Roses are red\nViolets are blue\n\nSugar is sweet\nAnd so are you\n")
    }

    @Test("Preserving spaces takes Tesseract's own lines, with their runs of spaces, in the same layout")
    func preservingSpaces() {
        #expect(
            PoemLayout.text(of: Self.roses, preservingSpaces: true)
                == "Roses   are red\nViolets are    blue\n\nSugar is sweet\nAnd so  are you\n")
    }

    @Test("A page without words gives no text")
    func empty() {
        #expect(PoemLayout.text(of: Self.page([], written: "\n")) == "")
    }
}

@Suite("PoemLayout: short poems")
struct ShortPoemLayoutTests {
    @Test("Three lines with one stanza break: the smaller gap is the pitch")
    func threeLines() {
        let page = PoemLayoutTests.page([(10, ["One"]), (50, ["Two"]), (170, ["Three"])], written: "One\nTwo\n\nThree\n")
        #expect(PoemLayout.text(of: page) == "One\nTwo\n\nThree\n")
    }
}
