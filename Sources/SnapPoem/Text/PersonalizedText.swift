/// A text after personalisation, with every change that was made.
public struct PersonalizedText: Sendable, Equatable, Codable {
    /// The new text.
    public var text: String
    /// The changes, in the order they occur in the original text.
    public var changes: [TextChange]
    /// The replacements whose FIND matched nothing, in the order of the set.
    public var unmatched: [UnmatchedFind]
    /// Words left alone that look like a FIND cut short, in text order.
    public var nearMisses: [NearMiss]
    /// Where each change sits in both texts, one for each of `changes` when the text came
    /// from `ReplacementSet.apply` (empty for a value made by hand). Derived from the other
    /// properties, so it is neither compared nor encoded.
    var placements: [ReplacementPlacement] = []

    /// Creates a result.
    public init(text: String, changes: [TextChange], unmatched: [UnmatchedFind] = [], nearMisses: [NearMiss] = []) {
        self.text = text
        self.changes = changes
        self.unmatched = unmatched
        self.nearMisses = nearMisses
    }

    enum CodingKeys: String, CodingKey { case text, changes, unmatched, nearMisses }

    /// Two results are equal when their texts, changes, unmatched FINDs and near misses are.
    public static func == (lhs: PersonalizedText, rhs: PersonalizedText) -> Bool {
        lhs.text == rhs.text && lhs.changes == rhs.changes && lhs.unmatched == rhs.unmatched && lhs.nearMisses == rhs.nearMisses
    }

    /// The character offset in `text` that the character at `offset` of the text before
    /// personalisation went to: the same character where it was copied, the start of the
    /// replacement where it was replaced. Offsets count `Character`s.
    func personalizedOffset(ofOriginal offset: Int) -> Int {
        guard let placement = placements.last(where: { $0.original.lowerBound <= offset }) else { return offset }
        if offset < placement.original.upperBound { return placement.replacement.lowerBound }
        return placement.resumesAt + (offset - placement.original.upperBound)
    }
}

/// Where one change of a personalisation sits: what it replaced in the original text and
/// where its replacement stands in the new one, as `Character` offsets.
struct ReplacementPlacement: Sendable, Equatable {
    /// The original characters the change consumed: the replaced text and, for a word
    /// hyphenated across a line end, the punctuation that moved up with it and the spaces
    /// skipped after it.
    var original: Range<Int>
    /// The replacement in the new text.
    var replacement: Range<Int>
    /// Where the new text goes on with the original's characters from `original.upperBound`.
    var resumesAt: Int
}
