/// A replacement set written as a literal: `["Lenore": "Alex", "Annabel Lee": "Sam"]`.
///
/// The pairs keep the order they are written in (which decides ties between overlapping
/// matches) and use the default `MatchingOptions`; set `options` afterwards to change how
/// FIND is matched. An empty FIND in a literal is a programming error and traps, as in
/// `Replacement.init(find:replaceWith:)`; text from users goes through
/// `Replacement.init(parsing:)` or `ReplacementsFile`, which throw instead.
extension ReplacementSet: ExpressibleByDictionaryLiteral {
    /// Creates a set from `FIND: REPLACE` pairs, in the order written.
    ///
    /// - Parameter pairs: each FIND with what it becomes.
    public init(dictionaryLiteral pairs: (String, String)...) {
        self.init(pairs.map { Replacement(find: $0.0, replaceWith: $0.1) })
    }

    /// Creates an empty set, which changes nothing. (Declared so that `ReplacementSet()` has
    /// one meaning beside the literal's initialiser.)
    public init() {
        self.init([Replacement](), options: MatchingOptions())
    }
}
