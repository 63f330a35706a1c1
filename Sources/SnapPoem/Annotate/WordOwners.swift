/// Ties the recognised words of a scan to its text: which line of the personalised poem each
/// word stands on, and which change (if any) replaced it.
///
/// The recognised text (`ScannedPoem.recognizedText`) is walked together with the words, as
/// the replacements' confidences are found (`WordConfidences`: ligatures, `|` for I and
/// joined hyphens allowed for), so every character of the text knows its word. A change's
/// `line` and `column` locate it in that text; the personalisation's placements carry any
/// offset over to the personalised text, whose line breaks give the line numbers.
struct WordOwners {
    /// For each word of `page.words`, the offset of its first character in the recognised
    /// text; nil when the text does not hold it.
    private let firstCharacter: [Int?]
    /// For each word, the change that replaced it.
    private let changes: [Int: Int]
    /// The personalisation, for carrying offsets over.
    private let personalized: PersonalizedText
    /// For each character of the personalised text, the 1-based line it is on.
    private let personalizedLines: [Int]

    init(poem: ScannedPoem) {
        let words = poem.page.words
        let characters = Array(poem.recognizedText)
        let owners = WordConfidences(words: words).owners(of: characters)
        var first = [Int?](repeating: nil, count: words.count)
        for (offset, owner) in owners.enumerated() {
            if let owner, first[owner] == nil { first[owner] = offset }
        }
        firstCharacter = first

        // Where each line of the recognised text starts, as `TextPositions` counts lines.
        var lineStarts = [0]
        for (offset, character) in characters.enumerated() where character.isNewline { lineStarts.append(offset + 1) }
        var replaced: [Int: Int] = [:]
        for (index, change) in poem.personalized.changes.enumerated() {
            guard change.line >= 1, change.line <= lineStarts.count, change.column >= 1 else { continue }
            let start = lineStarts[change.line - 1] + change.column - 1
            let end = min(characters.count, start + change.original.count)
            guard start < end else { continue }
            for owner in owners[start..<end].compactMap({ $0 }) where replaced[owner] == nil {
                replaced[owner] = index
            }
        }
        changes = replaced

        personalized = poem.personalized
        var line = 1
        var lines: [Int] = []
        lines.reserveCapacity(poem.personalized.text.count + 1)
        // Lines of the personalised poem as the exporters split it (`PoemStanzas`).
        for character in poem.personalized.text {
            lines.append(line)
            if character == "\n" || character == "\r\n" { line += 1 }
        }
        lines.append(line)
        personalizedLines = lines
    }

    /// The line of the personalised poem that word `index` of `page.words` is on.
    func line(ofWord index: Int) -> Int? {
        guard index < firstCharacter.count, let offset = firstCharacter[index] else { return nil }
        let moved = personalized.personalizedOffset(ofOriginal: offset)
        return personalizedLines[min(max(moved, 0), personalizedLines.count - 1)]
    }

    /// The change that replaced word `index` of `page.words`, or nil.
    func change(ofWord index: Int) -> Int? {
        changes[index]
    }

    /// The indices in `page.words` of the words a change replaced.
    var replacedWords: [Int] { changes.keys.sorted() }
}
