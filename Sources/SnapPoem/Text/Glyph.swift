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

/// The distinct glyphs of one comparison (the text's words and the FINDs), numbered from 0,
/// with what comparing two of them needs worked out once per glyph, as numbers: comparing
/// glyph numbers costs a few integer tests, so nothing per pair of glyphs is ever stored
/// (a table of every FIND letter against every glyph grows with their product).
struct GlyphTable {
    private(set) var glyphs: [Glyph] = []
    /// Glyph number of each `CodedText` code, -1 when not numbered yet.
    private var numbers: [Int] = []
    /// Per glyph: the number of its own spelling.
    private(set) var exact: [Int] = []
    /// Per glyph: the number of its lowercase spelling (the same for "L" and "l").
    private(set) var lowered: [Int] = []
    /// Per glyph: the number of its spelling without accents, case kept.
    private(set) var base: [Int] = []
    /// Per glyph: the number of its lowercase spelling without accents.
    private(set) var loweredBase: [Int] = []
    /// Per glyph: a vowel.
    private(set) var isVowel: [Bool] = []
    /// Per glyph: its own bit in `OCRConfusions.alphabet` (0 when it takes part in none).
    private(set) var confusionSelf: [UInt32] = []
    /// Per glyph: the bits of the characters OCR confuses it with.
    private(set) var confusionPartners: [UInt32] = []
    /// Per glyph: the bits of its case forms.
    private(set) var caselessConfusionSelf: [UInt32] = []
    /// Per glyph: the bits of the characters OCR confuses any of its case forms with.
    private(set) var caselessConfusionPartners: [UInt32] = []
    /// Spellings (a character, a lowercase or accentless spelling) by number.
    private var spellings: [String: Int] = [:]
    /// Glyph numbers by exact spelling, and by lowercase spelling.
    private var byCharacter: [String: [Int]] = [:]
    private var byLowered: [String: [Int]] = [:]

    /// The glyph number of the character with `code` in `text`, adding it when it is new.
    mutating func number(of code: Int, in text: CodedText) -> Int {
        if code < numbers.count, numbers[code] >= 0 { return numbers[code] }
        while numbers.count <= code { numbers.append(-1) }
        let glyph = GlyphCache.glyph(text.distinct[code])
        let number = glyphs.count
        glyphs.append(glyph)
        numbers[code] = number
        exact.append(spelling(String(glyph.character)))
        lowered.append(spelling(glyph.lowered))
        base.append(spelling(glyph.base))
        loweredBase.append(spelling(glyph.loweredBase))
        isVowel.append(glyph.isVowel)
        confusionSelf.append(OCRConfusions.bit(glyph.character))
        confusionPartners.append(OCRConfusions.partners(glyph.character))
        caselessConfusionSelf.append(glyph.caseForms.reduce(0) { $0 | OCRConfusions.bit($1) })
        caselessConfusionPartners.append(glyph.caseForms.reduce(0) { $0 | OCRConfusions.partners($1) })
        byCharacter[String(glyph.character), default: []].append(number)
        byLowered[glyph.lowered, default: []].append(number)
        return number
    }

    /// Glyph numbers spelled `spelling`: exactly, or in lowercase when case is ignored.
    func glyphs(spelled spelling: String, caseSensitive: Bool) -> [Int] {
        (caseSensitive ? byCharacter[spelling] : byLowered[spelling]) ?? []
    }

    /// How glyph `number` is spelled when comparing spellings: itself, or lowercase.
    func spelling(of number: Int, caseSensitive: Bool) -> String {
        caseSensitive ? String(glyphs[number].character) : glyphs[number].lowered
    }

    /// Keys under which a reading whose first glyph is `number` is looked up: its spelling
    /// without accents (in lowercase when case is ignored), its bits among OCR confusions,
    /// and the glyph itself (for two glyphs of FIND read as one, or one read as two). A FIND
    /// that may begin so is filed under at least one of the same keys
    /// (`OCRWordPattern.openingKeys`).
    func openingKeys(of number: Int, caseSensitive: Bool) -> [Int] {
        var keys = [GlyphKey.spelling(caseSensitive ? base[number] : loweredBase[number]), GlyphKey.glyph(number)]
        let bits = caseSensitive ? confusionSelf[number] : confusionSelf[number] | caselessConfusionSelf[number]
        keys += GlyphKey.confusions(bits)
        return keys
    }

    /// Whether OCR confuses glyphs `a` and `b` (`OCRConfusions`), in any letter case when
    /// case is ignored.
    func isConfusion(_ a: Int, _ b: Int, caseSensitive: Bool) -> Bool {
        if confusionPartners[a] & confusionSelf[b] != 0 { return true }
        return !caseSensitive && caselessConfusionPartners[a] & caselessConfusionSelf[b] != 0
    }

    private mutating func spelling(_ text: String) -> Int {
        if let number = spellings[text] { return number }
        let number = spellings.count
        spellings[text] = number
        return number
    }
}

/// Keys of an index of FINDs by how a reading of them may begin (see
/// `GlyphTable.openingKeys(of:caseSensitive:)`).
enum GlyphKey {
    static func spelling(_ number: Int) -> Int { number * 3 }
    static func glyph(_ number: Int) -> Int { number * 3 + 1 }
    static func confusions(_ bits: UInt32) -> [Int] {
        (0..<32).filter { bits & (UInt32(1) << UInt32($0)) != 0 }.map { $0 * 3 + 2 }
    }
}

/// Glyphs OCR mistakes for each other, in either direction, as bits of a small alphabet.
enum OCRConfusions {
    /// The pairs.
    static let pairs: [(Character, Character)] = [
        ("c", "e"), ("o", "0"), ("O", "0"), ("l", "1"), ("l", "I"), ("I", "1"), ("l", "|"),
        ("I", "|"), ("1", "|"), ("i", "l"), ("i", "1"), ("f", "t"), ("S", "5"), ("B", "8"),
        ("Z", "2"), ("g", "q"), ("g", "9"), ("y", "v"),
    ]

    /// Every character of a pair, numbered (fewer than 32).
    private static let alphabet: [Character: Int] = {
        var numbers: [Character: Int] = [:]
        for (a, b) in pairs {
            for character in [a, b] where numbers[character] == nil { numbers[character] = numbers.count }
        }
        precondition(numbers.count <= 32, "the confusion alphabet must fit in 32 bits")
        return numbers
    }()

    private static let partnerBits: [Character: UInt32] = {
        var bits: [Character: UInt32] = [:]
        for (a, b) in pairs {
            bits[a, default: 0] |= bit(b)
            bits[b, default: 0] |= bit(a)
        }
        return bits
    }()

    /// The character's own bit, 0 when it is in no pair.
    static func bit(_ character: Character) -> UInt32 {
        alphabet[character].map { UInt32(1) << UInt32($0) } ?? 0
    }

    /// The bits of the characters paired with `character`.
    static func partners(_ character: Character) -> UInt32 {
        partnerBits[character] ?? 0
    }
}

/// The `Glyph`s made so far in this process: a poem has few distinct characters, and working
/// out a glyph's forms (decomposition, case) costs more than looking it up. Bounded: past
/// `capacity` glyphs (texts and FINDs come from outside, and combining marks make endless
/// distinct characters), new ones are made each time and not kept.
enum GlyphCache {
    /// The most glyphs kept.
    static let capacity = 8192
    private static let known = Locked<[Character: Glyph]>([:])

    static func glyph(_ character: Character) -> Glyph {
        if let glyph = known.withLock({ $0[character] }) { return glyph }
        let glyph = Glyph(character)
        known.withLock { if $0.count < capacity { $0[character] = glyph } }
        return glyph
    }
}
