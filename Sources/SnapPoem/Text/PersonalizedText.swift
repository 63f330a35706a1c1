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

    /// Creates a result.
    public init(text: String, changes: [TextChange], unmatched: [UnmatchedFind] = [], nearMisses: [NearMiss] = []) {
        self.text = text
        self.changes = changes
        self.unmatched = unmatched
        self.nearMisses = nearMisses
    }
}
