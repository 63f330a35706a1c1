/// A set of replacements applied together, in one pass: a replaced text is never searched
/// again, so `Lenore=Alex` with `Alex=Sam` turns "Lenore" into "Alex", and `A=B` with `B=A`
/// swaps. Matching is case-sensitive and whole-word: "Lenored" is left alone.
public struct ReplacementSet: Sendable, Equatable, Codable {
    /// The pairs, in the order given; where two match at the same place, the longer `find`
    /// wins, then the earlier pair.
    public var replacements: [Replacement]

    /// Creates a set; an empty set changes nothing.
    public init(_ replacements: [Replacement] = []) {
        self.replacements = replacements
    }

    /// Applies every replacement to `text` at once. Pure: the same input gives the same output.
    public func apply(to text: String) -> PersonalizedText {
        guard !replacements.isEmpty else { return PersonalizedText(text: text, changes: []) }
        let characters = Array(text)
        let candidates = replacements.enumerated()
            .map { (order: $0.offset, pair: $0.element, pattern: Array($0.element.find)) }
            .sorted { $0.pattern.count != $1.pattern.count ? $0.pattern.count > $1.pattern.count : $0.order < $1.order }
        var output = ""
        var changes: [TextChange] = []
        var line = 1, column = 1
        var index = 0
        while index < characters.count {
            let match = candidates.first { candidate in
                let end = index + candidate.pattern.count
                guard end <= characters.count, Array(characters[index..<end]) == candidate.pattern else { return false }
                let startsWord = index == 0 || !Self.isWordCharacter(characters[index - 1])
                let endsWord = end == characters.count || !Self.isWordCharacter(characters[end])
                return startsWord && endsWord
            }
            if let match {
                output += match.pair.replacement
                changes.append(TextChange(line: line, column: column, original: match.pair.find, replacement: match.pair.replacement))
                for character in match.pattern { advance(&line, &column, over: character) }
                index += match.pattern.count
            } else {
                output.append(characters[index])
                advance(&line, &column, over: characters[index])
                index += 1
            }
        }
        return PersonalizedText(text: output, changes: changes)
    }

    private func advance(_ line: inout Int, _ column: inout Int, over character: Character) {
        if character.isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    /// Letters, digits and the apostrophe-free joiners that make up a word.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
