/// Rebuilds a poem's line and stanza breaks from where its lines sit on the page.
///
/// Tesseract's own text often splits a stanza into one "paragraph" per line, or merges
/// stanzas. A poem's shape is clearer in its geometry: lines follow each other at a steady
/// pitch, and a stanza break is a gap much larger than that pitch. So the text is the
/// recognised lines in reading order, one per line, with a blank line wherever the distance
/// from one line's top to the next is more than `stanzaGapFactor` times the median distance.
public enum PoemLayout {
    /// How much larger than the usual line pitch a gap must be to count as a stanza break.
    public static let stanzaGapFactor = 1.55

    /// The poem's text: one line per recognised line, stanzas separated by a blank line,
    /// ending with a newline (empty when there are no lines with text).
    ///
    /// - Parameters:
    ///   - page: the recognised page, with its lines' positions.
    ///   - preservingSpaces: take each line as Tesseract wrote it, with the runs of spaces it
    ///     measured between words (`RecognitionOptions.preserveInterwordSpaces`), rather than
    ///     its words joined by single spaces.
    public static func text(of page: RecognizedPage, preservingSpaces: Bool = false) -> String {
        let lines = page.lines.filter { line in line.words.contains(where: \.hasVisibleText) }
        guard !lines.isEmpty else { return "" }
        var texts = lines.map(\.text)
        if preservingSpaces {
            // Tesseract's text has the same lines, in the same order, between blank ones.
            let written = page.text.split(separator: "\n")
                .map { String($0.reversed().drop { $0.isWhitespace }.reversed()) }
                .filter { !$0.isEmpty }
            if written.count == texts.count { texts = written }
        }
        let pitches = zip(lines, lines.dropFirst())
            .map { $1.boundingBox.top - $0.boundingBox.top }
            .filter { $0 > 0 }
            .sorted()
        // The lower median: with only two gaps, one of them a stanza break, the other is the pitch.
        let typicalPitch = pitches.isEmpty ? 0 : pitches[(pitches.count - 1) / 2]
        var output = texts[0]
        for index in lines.indices.dropFirst() {
            let pitch = lines[index].boundingBox.top - lines[index - 1].boundingBox.top
            let isStanzaBreak = pitch <= 0 || (typicalPitch > 0 && Double(pitch) > Double(typicalPitch) * stanzaGapFactor)
            output += isStanzaBreak ? "\n\n" : "\n"
            output += texts[index]
        }
        return output + "\n"
    }
}
