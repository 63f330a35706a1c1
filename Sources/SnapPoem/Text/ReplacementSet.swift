/// A set of replacements applied together, in one pass: a replaced text is never searched
/// again, so `Lenore=Alex` with `Alex=Sam` turns "Lenore" into "Alex", and `A=B` with `B=A`
/// swaps.
///
/// How a piece of text is recognised as FIND is set by `options` (`MatchingOptions`): by
/// default case-sensitive, whole words, and tolerant of OCR misreadings ("Lenorc",
/// "L enore", "Len-\nore"), with a precision-first rule for what is another word instead
/// ("Lenora", "Lenores", "ignore"); see `Strictness`.
///
/// Where several matches overlap, the closest wins (exact before caseless before
/// OCR-tolerant, then the smaller difference), then the earlier in the text, the longer, and
/// the earlier pair.
///
/// A word hyphenated across a line end ("Len-\nore hath") is replaced on its first line and
/// the rest of the second line keeps its own line ("Alex\nhath"); a punctuation mark stuck to
/// the end of the word moves up with it ("Len-\nore! and" → "Alex!\nand"). When nothing else
/// is on the second line, the two lines become one.
public struct ReplacementSet: Sendable, Equatable, Codable {
    /// The pairs, in the order given.
    public var replacements: [Replacement]
    /// How FIND is matched.
    public var options: MatchingOptions

    /// Creates a set; an empty set changes nothing.
    public init(_ replacements: [Replacement] = [], options: MatchingOptions = MatchingOptions()) {
        self.replacements = replacements
        self.options = options
    }

    /// The most pairs the command line and `ReplacementsFile` accept. Applying a set costs
    /// time in proportion to pairs × words of the text (measured: about 0.1 ms a pair on the
    /// 60-line "Lenore"; see BENCHMARKS.md), so 10 000 pairs take about a second. A set
    /// built in code may be larger; it is then just slower (see `maximumTotalLength` for how
    /// the work grows).
    public static let maximumPairs = 10_000

    /// The most characters (Unicode scalars) all FINDs and REPLACEs of a set may hold
    /// together when they come from outside. Each FIND is also at most
    /// `Replacement.maximumLength` long.
    ///
    /// What applying a set costs, whatever it holds: the exact search looks for each FIND
    /// in time proportional to the text's length plus FIND's (Knuth–Morris–Pratt); the
    /// OCR-tolerant comparison looks at each run of words only with the FINDs of about as
    /// many words and letters, each comparison at most (FIND's length + 1) × (the run's
    /// length + 1) steps in three rows of scratch memory; nothing is kept per pair of FIND
    /// letter and text letter. Memory grows with the text plus the pairs, never their
    /// product. A FIND longer than `Replacement.maximumLength` (only a set built in code can
    /// hold one) is matched exactly only, and gets no closest-word suggestion, so no
    /// comparison costs more than 257 × (the run's length + 1) steps.
    public static let maximumTotalLength = 100_000

    /// Why `pairs` are more than a set takes from outside (`maximumPairs`, `maximumTotalLength`,
    /// `Replacement.maximumLength`), in one line, or nil when they are not.
    public static func sizeProblem(_ pairs: [Replacement]) -> String? {
        guard pairs.count <= maximumPairs else {
            return "\(pairs.count) replacement pairs were given; at most \(maximumPairs) are taken"
        }
        var total = 0
        for pair in pairs {
            if let problem = pair.lengthProblem { return problem }
            total += pair.find.unicodeScalars.count + pair.replacement.unicodeScalars.count
        }
        guard total <= maximumTotalLength else {
            return "the replacement pairs hold \(total) characters in all; at most \(maximumTotalLength) are taken"
        }
        return nil
    }

    /// Whether the set has no pairs (and so leaves every text as it is).
    public var isEmpty: Bool { replacements.isEmpty }

    /// Applies every replacement to `text` at once. Pure: the same input gives the same output.
    ///
    /// - Returns: the new text, each change (without OCR confidences), and each FIND that
    ///   matched nothing with the closest word of the text.
    public func apply(to text: String) -> PersonalizedText {
        apply(to: text, confidences: nil)
    }

    /// Applies every replacement to `text`, the recognised text built from `words`, and
    /// records each change's OCR confidence: the lowest confidence of the recognised words it
    /// covers. Pure, like `apply(to:)`.
    ///
    /// `text` may be `words` laid out by `PoemLayout` and tidied by `OCRTextCleanup` (words are
    /// found in it in order, ignoring spaces, ligatures, `|` read as `I`, and joined
    /// hyphens). Where the text stops following the words, confidences are nil.
    public func apply(to text: String, words: [RecognizedWord]) -> PersonalizedText {
        apply(to: text, confidences: WordConfidences(words: words))
    }

    private func apply(to text: String, confidences: WordConfidences?) -> PersonalizedText {
        guard !replacements.isEmpty else { return PersonalizedText(text: text, changes: []) }
        var matcher = ReplacementMatcher(text: text, set: self)
        return matcher.personalize(confidences: confidences)
    }

    /// Letters, digits and `_`: the characters a whole word is made of.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
