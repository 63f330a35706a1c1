import Foundation
import Synchronization

/// One character (grapheme cluster) with the forms OCR-tolerant comparison looks at.
struct Glyph: Sendable {
    /// The character itself; `==` on `Character` is canonical equivalence, so NFC "é" and
    /// NFD "e\u{301}" are the same glyph.
    let character: Character
    /// Its lowercase spelling.
    let lowered: String
    /// Its lowercase and uppercase spellings that are single characters.
    let caseForms: [Character]
    /// Its spelling without accents (combining marks), case kept: "É" → "E".
    let base: String
    /// Its lowercase spelling without accents: "É" → "e".
    let loweredBase: String
    /// Whether it is a vowel (a, e, i, o, u, y, æ, œ, with or without accents, any case).
    let isVowel: Bool

    init(_ character: Character) {
        self.character = character
        lowered = character.lowercased()
        caseForms = [lowered, character.uppercased()].compactMap { $0.count == 1 ? $0.first : nil }
        let stripped = String(
            String.UnicodeScalarView(
                String(character).decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                    $0.properties.generalCategory != .nonspacingMark
                }))
        base = stripped.isEmpty ? String(character) : stripped
        loweredBase = base.lowercased()
        isVowel = Self.vowels.contains(loweredBase)
    }

    private static let vowels: Set<String> = ["a", "e", "i", "o", "u", "y", "æ", "œ"]
}

/// The distinct glyphs of one comparison (the text's words and the FINDs), numbered from 0.
struct GlyphTable {
    private(set) var glyphs: [Glyph] = []
    /// Glyph number of each `CodedText` code, -1 when not numbered yet.
    private var numbers: [Int] = []

    /// The glyph number of the character with `code` in `text`, adding it when it is new.
    mutating func number(of code: Int, in text: CodedText) -> Int {
        if code < numbers.count, numbers[code] >= 0 { return numbers[code] }
        while numbers.count <= code { numbers.append(-1) }
        glyphs.append(GlyphCache.glyph(text.distinct[code]))
        numbers[code] = glyphs.count - 1
        return glyphs.count - 1
    }
}

/// Every `Glyph` made so far in this process: a poem has few distinct characters, and working
/// out a glyph's forms (decomposition, case) costs more than looking it up.
enum GlyphCache {
    private static let known = Mutex<[Character: Glyph]>([:])

    static func glyph(_ character: Character) -> Glyph {
        if let glyph = known.withLock({ $0[character] }) { return glyph }
        let glyph = Glyph(character)
        known.withLock { $0[character] = glyph }
        return glyph
    }
}
