/// One recognised word.
public struct RecognizedWord: Sendable, Equatable, Codable {
    /// The word's text, as Tesseract read it.
    public var text: String
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// Where the word is in the image that was recognised.
    public var boundingBox: BoundingBox
    /// Whether the model's dictionary holds the word as read
    /// (`TessResultIteratorWordIsFromDictionary`): a misreading rarely spells a word.
    public var isFromDictionary: Bool

    /// Creates a word, e.g. to test code that consumes recognition results.
    public init(text: String, confidence: Double, boundingBox: BoundingBox, isFromDictionary: Bool = false) {
        self.text = text
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.isFromDictionary = isFromDictionary
    }

    /// Whether the word has a character that is not whitespace (a blank page can give an
    /// empty "word").
    var hasVisibleText: Bool { text.hasVisibleText }

    private enum CodingKeys: String, CodingKey { case text, confidence, boundingBox, isFromDictionary }

    /// Decodes a word written by this version or an older one (`isFromDictionary` false when
    /// absent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        confidence = try container.decode(Double.self, forKey: .confidence)
        boundingBox = try container.decode(BoundingBox.self, forKey: .boundingBox)
        isFromDictionary = try container.decodeIfPresent(Bool.self, forKey: .isFromDictionary) ?? false
    }
}

/// One recognised line of text.
public struct RecognizedLine: Sendable, Equatable, Codable {
    /// The line's words, left to right.
    public var words: [RecognizedWord]
    /// Where the line is.
    public var boundingBox: BoundingBox
    /// Tesseract's confidence for the line, 0–100.
    public var confidence: Double

    /// Creates a line.
    public init(words: [RecognizedWord], boundingBox: BoundingBox, confidence: Double) {
        self.words = words
        self.boundingBox = boundingBox
        self.confidence = confidence
    }

    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// One paragraph: for a poem, usually a stanza.
public struct RecognizedParagraph: Sendable, Equatable, Codable {
    /// The paragraph's lines, top to bottom.
    public var lines: [RecognizedLine]
    /// Where the paragraph is.
    public var boundingBox: BoundingBox

    /// Creates a paragraph.
    public init(lines: [RecognizedLine], boundingBox: BoundingBox) {
        self.lines = lines
        self.boundingBox = boundingBox
    }
}

/// One block of text found by page layout analysis.
public struct RecognizedBlock: Sendable, Equatable, Codable {
    /// The block's paragraphs, in reading order.
    public var paragraphs: [RecognizedParagraph]
    /// Where the block is.
    public var boundingBox: BoundingBox

    /// Creates a block.
    public init(paragraphs: [RecognizedParagraph], boundingBox: BoundingBox) {
        self.paragraphs = paragraphs
        self.boundingBox = boundingBox
    }
}

/// Everything Tesseract recognised on one page.
public struct RecognizedPage: Sendable, Equatable, Codable {
    /// The page's text as Tesseract lays it out: lines separated by newlines, paragraphs by a
    /// blank line. Partial when `timedOut`.
    public var text: String
    /// Tesseract's mean word confidence, 0–100 (`TessBaseAPIMeanTextConf`); 0 when no text.
    public var meanConfidence: Int
    /// The layout: blocks → paragraphs → lines → words.
    public var blocks: [RecognizedBlock]
    /// True when the time limit stopped recognition, or the orientation check of a page that
    /// read badly (its detection, its turned reading); `text` then holds what was read so far.
    public var timedOut: Bool
    /// Width of the image that was recognised.
    public var imageWidth: Int
    /// Height of the image that was recognised.
    public var imageHeight: Int
    /// Tesseract's renderings that were asked for in `RecognitionOptions.renderings`.
    public var renderings: [PageRenderingFormat: String] = [:]

    /// Creates a page, e.g. to test code that consumes recognition results.
    public init(
        text: String, meanConfidence: Int, blocks: [RecognizedBlock], timedOut: Bool,
        imageWidth: Int, imageHeight: Int, renderings: [PageRenderingFormat: String] = [:]
    ) {
        self.text = text
        self.meanConfidence = meanConfidence
        self.blocks = blocks
        self.timedOut = timedOut
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.renderings = renderings
    }

    /// Every word on the page in reading order.
    public var words: [RecognizedWord] {
        blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
    }

    /// Every line on the page in reading order.
    public var lines: [RecognizedLine] {
        blocks.flatMap { $0.paragraphs.flatMap(\.lines) }
    }

    /// The mean confidence of the words with visible characters, 0–100; 0 when there are
    /// none. Tesseract's own mean (`meanConfidence`) also counts the blank "words" it returns
    /// over pictures, margins and textures, at 95 each: a screen photo read as garbage (its
    /// visible words at 27 on average) scored 55 by it.
    public var visibleWordConfidence: Int {
        let visible = words.filter(\.hasVisibleText)
        guard !visible.isEmpty else { return 0 }
        return Int((visible.map(\.confidence).reduce(0, +) / Double(visible.count)).rounded())
    }

    /// Whether any word with visible characters was found. A blank page can still yield an
    /// empty "word" with a high confidence, so neither `meanConfidence` nor `words.count`
    /// alone can tell.
    public var hasText: Bool {
        words.contains(where: \.hasVisibleText)
    }
}
