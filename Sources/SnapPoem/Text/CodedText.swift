/// A text's characters as small numbers, one per distinct character, with what matching needs
/// to know of each distinct character worked out once.
///
/// `Character` comparison and Unicode property look-ups are costly when repeated for every
/// position; numbers are not. Canonically equivalent spellings (NFC "é", NFD "e\u{301}") are
/// equal `Character`s and so share a number.
struct CodedText {
    /// The text's characters.
    let characters: [Character]
    /// The number of each character.
    private(set) var codes: [Int] = []
    /// The distinct characters, by number (the text's first, then any added by `code(of:)`).
    private(set) var distinct: [Character] = []
    /// Per number: a letter, digit or `_` (a whole word's characters).
    private(set) var isWord: [Bool] = []
    /// Per number: a word character or `|` (a word's characters for OCR-tolerant matching).
    private(set) var isToken: [Bool] = []
    /// Per number: a line break.
    private(set) var isNewline: [Bool] = []
    /// Per number: the number of its lowercase spelling, the same for "L" and "l".
    private(set) var caseless: [Int] = []
    private var numbers: [Character: Int] = [:]
    private var caselessNumbers: [String: Int] = [:]

    init(_ text: String) {
        characters = Array(text)
        codes = characters.map { code(of: $0) }
    }

    /// The number of `character`, numbering it when it is new.
    mutating func code(of character: Character) -> Int {
        if let number = numbers[character] { return number }
        let number = distinct.count
        numbers[character] = number
        distinct.append(character)
        let word = ReplacementSet.isWordCharacter(character)
        isWord.append(word)
        isToken.append(word || character == "|")
        isNewline.append(character.isNewline)
        let lowered = character.lowercased()
        if caselessNumbers[lowered] == nil { caselessNumbers[lowered] = caselessNumbers.count }
        caseless.append(caselessNumbers[lowered]!)
        return number
    }

    /// Number of characters.
    var count: Int { characters.count }

    /// How many caseless numbers there are.
    var caselessCount: Int { caselessNumbers.count }
}
