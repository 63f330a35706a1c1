/// How a `ReplacementSet` decides that a piece of text is FIND.
///
/// The defaults are those of the original app, made forgiving of OCR: case-sensitive, whole
/// words only, and OCR-tolerant at `Strictness.normal`.
public struct MatchingOptions: Sendable, Hashable, Codable {
    /// Whether letter case must match (`--ignore-case` turns it off). When it is off, the
    /// replacement takes the case of the text it replaces: LENORE → ALEX, lenore → alex,
    /// Lenore → Alex (a mixed-case text keeps REPLACE as written).
    public var caseSensitive: Bool
    /// Whether only whole words match (`--substring` turns it off): FIND must not be preceded
    /// or followed by a letter, digit or `_`, so "Lenored" is left alone. An apostrophe is a
    /// boundary: "Lenore's" becomes "Alex's".
    public var wholeWords: Bool
    /// How far an OCR misreading may stray from FIND and still count (`--exact` and
    /// `--strictness`). OCR-tolerant matching always compares whole words, even when
    /// `wholeWords` is off.
    public var strictness: Strictness

    /// Creates options; the defaults match the command line's.
    public init(caseSensitive: Bool = true, wholeWords: Bool = true, strictness: Strictness = .normal) {
        self.caseSensitive = caseSensitive
        self.wholeWords = wholeWords
        self.strictness = strictness
    }
}
