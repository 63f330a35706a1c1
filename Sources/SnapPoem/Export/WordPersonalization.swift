/// Carries personalisation over from the poem's text to Tesseract's words, for the formats
/// that keep the layout (hOCR, TSV, ALTO).
///
/// The replacements that were made (each distinct `original` → `replacement` of the poem's
/// changes) are applied again, line by line, to the recognised words joined by spaces, the
/// same text the poem's lines were built from. Each word then gets its own characters as
/// changed: a replacement inside one word stays in that word (`Lenore!` → `Alex!`); one that
/// spans several words (`Guy De Vere` → `Alex`) goes into the first word's box, and the other
/// words it covered become empty.
enum WordPersonalization {
    /// The text of every word of `page`, in reading order (the order of `page.words`), with
    /// the poem's replacements applied.
    static func personalizedWords(of page: RecognizedPage, changes: [TextChange]) -> [String] {
        let words = page.lines.map { $0.words.map(\.text) }
        guard let replacements = replacementSet(from: changes) else { return words.flatMap { $0 } }
        return words.flatMap { personalize(line: $0, with: replacements) }
    }

    /// The words of a Tesseract rendering, personalised: `found` are the rendering's words in
    /// document order. When they are the page's words (the usual case: both come from the same
    /// result iterator) the line-aware replacement above is used; otherwise each word is
    /// replaced on its own, so replacements spanning words are then not carried over.
    static func personalized(_ found: [String], in poem: ScannedPoem) -> [String] {
        guard let replacements = replacementSet(from: poem.personalized.changes) else { return found }
        if found == poem.page.words.map(\.text) {
            return personalizedWords(of: poem.page, changes: poem.personalized.changes)
        }
        return found.map { replacements.apply(to: $0).text }
    }

    /// The distinct replacements that were made, first occurrence first; nil when none.
    private static func replacementSet(from changes: [TextChange]) -> ReplacementSet? {
        var seen = Set<String>()
        var pairs: [Replacement] = []
        for change in changes where !change.original.isEmpty && seen.insert(change.original).inserted {
            pairs.append(Replacement(find: change.original, replaceWith: change.replacement))
        }
        // The originals are what the text said, so they are matched exactly, never tolerantly.
        return pairs.isEmpty ? nil : ReplacementSet(pairs, options: MatchingOptions(strictness: .exact))
    }

    /// One line's words after replacement.
    private static func personalize(line words: [String], with replacements: ReplacementSet) -> [String] {
        // Which word each character of the joined line belongs to; nil for the separating spaces.
        var owners: [Int?] = []
        for (index, word) in words.enumerated() {
            if index > 0 { owners.append(nil) }
            owners.append(contentsOf: Array(repeating: index, count: word.count))
        }
        let joined = words.joined(separator: " ")
        let characters = Array(joined)
        let result = replacements.apply(to: joined)
        // A word that begins with a combining mark fuses with the space before it, and the
        // character positions no longer line up: replace within each word on its own instead.
        guard characters.count == owners.count, !result.changes.contains(where: { $0.line != 1 }) else {
            return words.map { replacements.apply(to: $0).text }
        }
        var output = Array(repeating: "", count: words.count)
        var position = 0
        func copy(upTo end: Int) {
            while position < end {
                if let owner = owners[position] { output[owner].append(characters[position]) }
                position += 1
            }
        }
        for change in result.changes {
            let start = change.column - 1
            copy(upTo: start)
            let owner = owners[start] ?? owners[start...].lazy.compactMap { $0 }.first ?? (words.count - 1)
            output[owner] += change.replacement
            position = start + change.original.count
        }
        copy(upTo: characters.count)
        return output
    }
}
