/// Tidies the text Tesseract returns into the poem's shape, before replacements run.
///
/// Always keeps every line break and turns each run of blank lines into one blank line (a
/// stanza break); removes spaces at line ends and blank lines at the start and end; ends the
/// text with exactly one newline (none for an empty page). On top of that, each of these OCR
/// repairs can be switched off (`layoutOnly`, the command line's `--no-cleanup`, switches all
/// of them off):
///
/// - `fixesStandalonePipes`: a `|` standing alone ("| wept") or before an apostrophe
///   ("|'ll") is the letter I the OCR misread.
/// - `expandsLigatures`: the typographic ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ become their letters, so
///   "ﬂown" is found as "flown". The letters æ and œ ("Pæan", "cœur") are spelling, not
///   typography, and stay.
/// - `joinsHyphenatedWords`: a word hyphenated at a line end ("Len-" / "ore hath") is joined
///   on the first line ("Lenore" / "hath"), with any punctuation stuck to its end; a second
///   line left empty disappears. Joined only when the next line starts with a lowercase letter
///   and the poem does not write that word with a hyphen elsewhere ("to-night" stays
///   "to-\nnight"); dashes (—, –) are never joined, nor is anything across a stanza break.
/// - `tidiesSpaces`: runs of spaces inside a line become one (spaces opening a line are
///   indentation and stay); a space before a comma or a full stop, after an opening “ ( [ or
///   before a closing ” ) ] goes. Around em
///   dashes, spaces go when the poem mostly writes them unspaced ("toll! —a" → "toll!—a"),
///   except after a dash that opens a line (dialogue). French spacing before ; : ! ? and
///   inside « » is left alone.
///
/// Every step is idempotent, so cleaning twice gives the same text as once.
public struct OCRTextCleanup: Sendable, Hashable, Codable {
    /// Reads a standalone `|` as `I`.
    public var fixesStandalonePipes: Bool
    /// Expands typographic ligatures (U+FB00–U+FB06).
    public var expandsLigatures: Bool
    /// Joins words hyphenated across a line end.
    public var joinsHyphenatedWords: Bool
    /// Removes stray spaces.
    public var tidiesSpaces: Bool

    /// Creates a clean-up; every repair is on by default.
    public init(
        fixesStandalonePipes: Bool = true, expandsLigatures: Bool = true,
        joinsHyphenatedWords: Bool = true, tidiesSpaces: Bool = true
    ) {
        self.fixesStandalonePipes = fixesStandalonePipes
        self.expandsLigatures = expandsLigatures
        self.joinsHyphenatedWords = joinsHyphenatedWords
        self.tidiesSpaces = tidiesSpaces
    }

    /// Every repair on: what a scan does by default.
    public static let standard = OCRTextCleanup()
    /// No repair, only line ends and blank lines tidied (`--no-cleanup`).
    public static let layoutOnly = OCRTextCleanup(
        fixesStandalonePipes: false, expandsLigatures: false, joinsHyphenatedWords: false, tidiesSpaces: false)

    /// Returns `text` tidied with every repair on. Idempotent.
    public static func clean(_ text: String) -> String {
        standard.clean(text)
    }

    /// Returns the tidied text. Idempotent: cleaning twice gives the same text as once.
    public func clean(_ text: String) -> String {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { rawLine in
            var line = String(rawLine)
            if expandsLigatures { line = Self.expandingLigatures(line) }
            if tidiesSpaces { line = Self.tidyingSpaces(line) }
            if fixesStandalonePipes { line = Self.fixingPipes(line) }
            return Self.trimmingTrailingWhitespace(line)
        }
        if tidiesSpaces, Self.prefersUnspacedDashes(lines) { lines = lines.map(Self.closingUpDashes) }
        if joinsHyphenatedWords { lines = Self.joiningHyphenatedWords(lines) }

        var kept: [String] = []
        var pendingBlank = false
        for line in lines {
            if line.allSatisfy(\.isWhitespace) {
                pendingBlank = !kept.isEmpty
                continue
            }
            if pendingBlank { kept.append("") }
            pendingBlank = false
            kept.append(line)
        }
        return kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n"
    }

    // MARK: Ligatures and pipes

    private static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "ſt", "\u{FB06}": "st",
    ]

    private static func expandingLigatures(_ line: String) -> String {
        guard line.contains(where: { ligatures[$0] != nil }) else { return line }
        return line.reduce(into: "") { result, character in
            if let letters = ligatures[character] { result += letters } else { result.append(character) }
        }
    }

    private static func fixingPipes(_ line: String) -> String {
        guard line.contains("|") else { return line }
        return line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            if word == "|" { return "I" }
            if word.count > 2, word.first == "|", let next = word.dropFirst().first, next == "'" || next == "’" {
                return "I" + word.dropFirst()
            }
            return String(word)
        }.joined(separator: " ")
    }

    /// How the comparison of recognised words with the cleaned text sees a character: a
    /// ligature as its letters, `|` as `I`.
    static func normalizedForComparison(_ character: Character) -> [Character] {
        if character == "|" { return ["I"] }
        if let letters = ligatures[character] { return Array(letters) }
        return [character]
    }

    /// Hyphens that mark a word broken at a line end.
    static func isHyphen(_ character: Character) -> Bool {
        character == "-" || character == "\u{2010}" || character == "\u{AD}"
    }

    // MARK: Spaces

    private static let closesUpAfter: Set<Character> = ["“", "(", "["]
    private static let closesUpBefore: Set<Character> = ["”", ")", "]", ","]

    private static func tidyingSpaces(_ line: String) -> String {
        let input = Array(line)
        // Spaces opening the line are indentation, kept as they are.
        let indentation = input.prefix { $0 == " " || $0 == "\t" }
        var output = Array(indentation)
        output.reserveCapacity(input.count)
        for (index, character) in input.enumerated().dropFirst(indentation.count) {
            if character == " " || character == "\t" {
                // No space after another space or after an opening mark.
                guard let last = output.last, last != " ", !closesUpAfter.contains(last) else { continue }
                output.append(" ")
                continue
            }
            if output.last == " " {
                // A lone full stop closes up; " ..." (an ellipsis after a space) is a style.
                let isFullStop = character == "." && (index + 1 == input.count || input[index + 1] != ".")
                if closesUpBefore.contains(character) || isFullStop { output.removeLast() }
            }
            output.append(character)
        }
        return String(output)
    }

    private static func trimmingTrailingWhitespace(_ line: String) -> String {
        var end = line.endIndex
        while end > line.startIndex, line[line.index(before: end)].isWhitespace { end = line.index(before: end) }
        return String(line[..<end])
    }

    /// Whether the poem writes em dashes mostly without spaces ("toll!—a").
    private static func prefersUnspacedDashes(_ lines: [String]) -> Bool {
        var closed = 0, spaced = 0
        for line in lines {
            let characters = Array(line)
            for (index, character) in characters.enumerated() where character == "—" {
                guard index > 0, index < characters.count - 1 else { continue }
                let before = characters[index - 1], after = characters[index + 1]
                if before != " ", after != " " { closed += 1 }
                if before == " ", after == " " { spaced += 1 }
            }
        }
        return closed > spaced
    }

    private static func closingUpDashes(_ line: String) -> String {
        guard line.contains("—") else { return line }
        var characters = Array(line)
        var index = 0
        while index < characters.count {
            guard characters[index] == "—" else {
                index += 1
                continue
            }
            let opensLine = characters[..<index].allSatisfy { $0 == " " }
            if !opensLine {
                while index > 0, characters[index - 1] == " " {
                    characters.remove(at: index - 1)
                    index -= 1
                }
                while index + 1 < characters.count, characters[index + 1] == " " { characters.remove(at: index + 1) }
            }
            index += 1
        }
        return String(characters)
    }

    // MARK: Hyphenation

    private static func joiningHyphenatedWords(_ input: [String]) -> [String] {
        var lines = input
        let wholeText = input.joined(separator: "\n").lowercased()
        var index = 0
        while index + 1 < lines.count {
            guard let joined = join(lines[index], lines[index + 1], in: wholeText) else {
                index += 1
                continue
            }
            lines[index] = joined.first
            if joined.rest.isEmpty {
                lines.remove(at: index + 1)
            } else {
                lines[index + 1] = joined.rest
            }
            // The joined line may end in a hyphen again; look at it once more.
        }
        return lines
    }

    /// `first` with the word broken at its end completed from `second`, and what is left of
    /// `second`; nil when the two lines are not one word broken in two.
    private static func join(_ first: String, _ second: String, in wholeText: String) -> (first: String, rest: String)? {
        guard let hyphen = first.last, isHyphen(hyphen) else { return nil }
        let head = first.dropLast()
        guard let lastLetter = head.last, lastLetter.isLetter else { return nil }
        let fragment = head.reversed().prefix { $0.isLetter }.reversed()
        let secondLine = second.drop { $0 == " " }
        guard let firstLetter = secondLine.first, firstLetter.isLetter, firstLetter.isLowercase else { return nil }
        let piece = secondLine.prefix { ReplacementSet.isWordCharacter($0) }
        if hyphen != "\u{AD}" {
            let hyphenated = (String(fragment) + "-" + piece).lowercased()
            let solid = (String(fragment) + piece).lowercased()
            if wholeText.contains(hyphenated), !wholeText.contains(solid) { return nil }
        }
        let afterPiece = secondLine.dropFirst(piece.count)
        let attached = afterPiece.prefix { !$0.isWhitespace && !ReplacementSet.isWordCharacter($0) }
        let rest = afterPiece.dropFirst(attached.count).drop { $0 == " " || $0 == "\t" }
        return (String(head) + piece + attached, String(rest))
    }
}
