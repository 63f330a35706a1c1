/// How much OCR damage a word may show and still be taken for FIND.
///
/// Differences between FIND and a word of the text are weighed, and the word matches when
/// their total is at most `costPerCharacter` × the number of characters of FIND, so a long
/// name forgives more than a short one:
///
/// - 0 for a word hyphenated across a line end ("Len-\nore") or at a soft hyphen;
/// - 0.25 for a lost or added accent ("Lénore" / "Lenore");
/// - 0.35 for a typical OCR confusion (c/e, rn/m, cl/d, vv/w, li/h, l/1/I/|/i, 0/O, f/t, 5/S,
///   8/B, 2/Z, g/q/9, v/y), for a space the OCR put inside a word ("L enore", one per word of
///   FIND at most) and for a space of FIND the OCR dropped ("Guy DeVere");
/// - 1 for any other letter changed inside the word, or a consonant lost or added inside it.
///
/// Some differences make another word, not a misreading, and never match, whatever the
/// strictness: anything added before or after the word ("Elenore", "Lenores"); the first or
/// last letter lost, or changed other than by a confusion or accent ("enore", "Lenor",
/// "Tenore", "Lenora": so "Roberts" is never "Robert", nor "Clover" "lover"); a vowel added
/// or lost ("Leonore"); a different letter case when matching is case-sensitive ("will" is
/// not "Will").
public struct Strictness: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The largest total cost of differences allowed per character of FIND; 0 with
    /// `isExact` switches OCR-tolerant matching off.
    public var costPerCharacter: Double
    /// Whether OCR-tolerant matching is off: only exact (or, with `--ignore-case`, caseless)
    /// matches count.
    public var isExact: Bool

    /// Creates a custom strictness.
    ///
    /// - Parameter costPerCharacter: how much difference to allow per character of FIND;
    ///   `normal` is 0.18 (one unrelated consonant in a six-letter name, or two confusions in
    ///   a five-letter one). Must be finite and 0 or more.
    public init(costPerCharacter: Double) {
        precondition(costPerCharacter.isFinite && costPerCharacter >= 0, "a strictness needs a cost of 0 or more")
        self.costPerCharacter = costPerCharacter
        self.isExact = false
    }

    private init(exact: ()) {
        costPerCharacter = 0
        isExact = true
    }

    /// OCR-tolerant matching off (`--exact`).
    public static let exact = Strictness(exact: ())
    /// Only glyph confusions, accents and splits: one confusion in a six-letter name.
    public static let strict = Strictness(costPerCharacter: 0.1)
    /// The default: confusions and splits, plus one unrelated consonant in names of six
    /// letters or more.
    public static let normal = Strictness(costPerCharacter: 0.18)
    /// More forgiving: may accept near misses such as "ignore" for "Lenore"; check `--report`.
    public static let loose = Strictness(costPerCharacter: 0.25)

    /// The levels the command line knows by name, strictest first.
    public static let named: [(name: String, strictness: Strictness)] = [
        ("exact", .exact), ("strict", .strict), ("normal", .normal), ("loose", .loose),
    ]

    /// The level called `name` (`exact`, `strict`, `normal`, `loose`), or nil.
    public init?(named name: String) {
        guard let found = Self.named.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = found.strictness
    }

    /// The level's name, or its cost per character when it is custom.
    public var description: String {
        Self.named.first { $0.strictness == self }?.name ?? "\(costPerCharacter) per character"
    }
}
