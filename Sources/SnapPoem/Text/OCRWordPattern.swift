/// The units compared: glyph numbers (0 or more) and these markers.
enum MatchUnit {
    /// A space between two words of FIND.
    static let findSpace = -1
    /// A single space between two pieces of a word in the text (an OCR split).
    static let splitGap = -2
    /// A hyphen and line break (or a soft hyphen) between two pieces of a word: typesetting.
    static let hyphenGap = -3
}

/// FIND prepared for OCR-tolerant comparison against the words of one text: the weighted
/// edit distance that decides OCR-tolerant matches, with every cost looked up in advance.
/// The weights and the differences that never match are documented on `Strictness`.
///
/// A class, so that the many comparisons of one text share its tables without copying them.
final class OCRWordPattern {
    /// A lost or added accent.
    static let accentCost = 0.25
    /// A typical OCR confusion, one glyph for one or two for one.
    static let confusionCost = 0.35
    /// A space inside a word of FIND, or a space of FIND missing in the text.
    static let splitCost = 0.35
    /// Any other changed, lost or added consonant.
    static let editCost = 1.0

    /// Glyphs OCR mistakes for each other, in either direction.
    private static let confusions: [Character: Set<Character>] = {
        let pairs: [(Character, Character)] = [
            ("c", "e"), ("o", "0"), ("O", "0"), ("l", "1"), ("l", "I"), ("I", "1"), ("l", "|"),
            ("I", "|"), ("1", "|"), ("i", "l"), ("i", "1"), ("f", "t"), ("S", "5"), ("B", "8"),
            ("Z", "2"), ("g", "q"), ("g", "9"), ("y", "v"),
        ]
        var partners: [Character: Set<Character>] = [:]
        for (a, b) in pairs {
            partners[a, default: []].insert(b)
            partners[b, default: []].insert(a)
        }
        return partners
    }()

    /// Two glyphs OCR reads as one (and one it reads as two), as spelled in lowercase.
    private static let doubleConfusions: [String: [String]] = {
        let pairs: [(String, String)] = [("rn", "m"), ("cl", "d"), ("vv", "w"), ("li", "h"), ("ii", "u")]
        return Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
    }()

    /// Units of FIND: glyph numbers and `MatchUnit.findSpace`.
    let units: [Int]
    /// Index of the replacement in its set.
    let pair: Int
    /// Number of words of FIND.
    let wordCount: Int
    /// Number of glyphs of FIND (spaces excluded).
    let glyphCount: Int
    /// The largest total cost that still matches.
    let budget: Double

    private let glyphTotal: Int
    /// `substitution[i * glyphTotal + g]`: reading glyph `g` where FIND has unit `i`.
    private let substitution: [Double]
    /// Losing unit `i` of FIND.
    private let deletion: [Double]
    /// Whether the text may hold an extra unit before FIND's unit `i` (inside a word only).
    private let insertsBefore: [Bool]
    /// Adding glyph `g` inside a word.
    private let insertion: [Double]
    /// Glyphs that FIND's units `i - 2` and `i - 1` together may be read as.
    private let mergedInto: [[Int]]
    /// Pairs of glyphs that FIND's unit `i - 1` may be read as.
    private let splitInto: [[(Int, Int)]]
    /// Per glyph: whether a reading of FIND may begin with it (FIND's first letter must be
    /// right or plausibly misread, so this rules out most words at once).
    private let opensWith: [Bool]
    /// Per glyph: whether a reading of FIND may end with it.
    private let closesWith: [Bool]

    /// Compiles FIND (already numbered in `table`, which holds every glyph of the text too).
    init(units: [Int], pair: Int, table: GlyphTable, caseSensitive: Bool, costPerCharacter: Double) {
        self.units = units
        self.pair = pair
        wordCount = units.filter { $0 == MatchUnit.findSpace }.count + 1
        glyphCount = units.filter { $0 >= 0 }.count
        budget = costPerCharacter * Double(glyphCount)
        let glyphs = table.glyphs
        glyphTotal = glyphs.count
        let m = units.count

        var substitution = [Double](repeating: .infinity, count: m * glyphs.count)
        var deletion = [Double](repeating: .infinity, count: m)
        for (i, unit) in units.enumerated() {
            guard unit >= 0 else {
                deletion[i] = Self.splitCost
                continue
            }
            let startsWord = i == 0 || units[i - 1] < 0
            let endsWord = i == m - 1 || units[i + 1] < 0
            for (g, glyph) in glyphs.enumerated() {
                substitution[i * glyphs.count + g] = Self.glyphCost(
                    glyphs[unit], glyph, startsWord: startsWord, endsWord: endsWord, caseSensitive: caseSensitive)
            }
            deletion[i] = glyphs[unit].isVowel || startsWord || endsWord ? .infinity : Self.editCost
        }
        self.substitution = substitution
        self.deletion = deletion
        insertsBefore = (0...m).map { $0 > 0 && $0 < m && units[$0 - 1] >= 0 && units[$0] >= 0 }
        insertion = glyphs.map { $0.isVowel ? .infinity : Self.editCost }

        let spell = { (glyph: Glyph) in caseSensitive ? String(glyph.character) : glyph.lowered }
        var bySpelling: [String: [Int]] = [:]
        for (g, glyph) in glyphs.enumerated() { bySpelling[spell(glyph), default: []].append(g) }
        var mergedInto = [[Int]](repeating: [], count: m + 1)
        var splitInto = [[(Int, Int)]](repeating: [], count: m + 1)
        for i in 1...max(1, m) where i <= m && units[i - 1] >= 0 {
            let single = spell(glyphs[units[i - 1]])
            for (double, singles) in Self.doubleConfusions where singles.contains(single) {
                let letters = double.map(String.init)
                for first in bySpelling[letters[0]] ?? [] {
                    for second in bySpelling[letters[1]] ?? [] { splitInto[i].append((first, second)) }
                }
            }
            if i >= 2, units[i - 2] >= 0, let singles = Self.doubleConfusions[spell(glyphs[units[i - 2]]) + single] {
                mergedInto[i] = singles.flatMap { bySpelling[$0] ?? [] }
            }
        }
        self.mergedInto = mergedInto
        self.splitInto = splitInto
        opensWith = glyphs.indices.map { g in
            substitution[g].isFinite || (m >= 2 && mergedInto[2].contains(g)) || splitInto[1].contains { $0.0 == g }
        }
        closesWith = glyphs.indices.map { g in
            substitution[(m - 1) * glyphs.count + g].isFinite || (m >= 2 && mergedInto[m].contains(g))
                || splitInto[m].contains { $0.1 == g }
        }
    }

    /// Whether a candidate beginning with glyph `first` and ending with glyph `last` may be
    /// a reading of FIND at all: a quick test before `cost(of:scratch:)`.
    func mayMatch(first: Int, last: Int) -> Bool {
        opensWith[first] && closesWith[last]
    }

    /// The cost of reading `candidate` (glyph numbers and gap markers) as FIND, or
    /// `.infinity` when it exceeds `budget` or makes another word. `scratch` is reused
    /// between calls.
    func cost(of candidate: [Int], scratch: inout [Double]) -> Double {
        let m = units.count, k = candidate.count
        let width = k + 1
        let size = (m + 1) * width
        if scratch.count < size { scratch = [Double](repeating: .infinity, count: size) }
        for index in 0..<size { scratch[index] = .infinity }
        scratch[0] = 0
        var previousRowMinimum = Double.infinity
        for i in 0...m {
            var rowMinimum = i == 0 ? 0 : Double.infinity
            for j in 0...k where i > 0 || j > 0 {
                var best = Double.infinity
                if i > 0 {
                    let unit = units[i - 1]
                    if j > 0 {
                        let found = candidate[j - 1]
                        let step: Double
                        if found >= 0 {
                            step = unit >= 0 ? substitution[(i - 1) * glyphTotal + found] : .infinity
                        } else {
                            step = unit == MatchUnit.findSpace ? 0 : .infinity
                        }
                        best = scratch[(i - 1) * width + j - 1] + step
                    }
                    best = min(best, scratch[(i - 1) * width + j] + deletion[i - 1])
                }
                if j > 0, insertsBefore[i] {
                    let found = candidate[j - 1]
                    let step: Double
                    switch found {
                    case MatchUnit.splitGap: step = Self.splitCost
                    case MatchUnit.hyphenGap: step = 0
                    default: step = found >= 0 ? insertion[found] : .infinity
                    }
                    best = min(best, scratch[i * width + j - 1] + step)
                }
                if i > 1, j > 0, !mergedInto[i].isEmpty, mergedInto[i].contains(candidate[j - 1]) {
                    best = min(best, scratch[(i - 2) * width + j - 1] + Self.confusionCost)
                }
                if i > 0, j > 1, !splitInto[i].isEmpty,
                    splitInto[i].contains(where: { $0.0 == candidate[j - 2] && $0.1 == candidate[j - 1] })
                {
                    best = min(best, scratch[(i - 1) * width + j - 2] + Self.confusionCost)
                }
                scratch[i * width + j] = best
                rowMinimum = min(rowMinimum, best)
            }
            // A row is reached only from the two rows above it (two glyphs read as one).
            if rowMinimum > budget, previousRowMinimum > budget { return .infinity }
            previousRowMinimum = rowMinimum
        }
        let total = scratch[m * width + k]
        return total <= budget + 1e-9 ? total : .infinity
    }

    /// The cost of reading `b` where FIND has `a`.
    static func glyphCost(_ a: Glyph, _ b: Glyph, startsWord: Bool, endsWord: Bool, caseSensitive: Bool) -> Double {
        if a.character == b.character { return 0 }
        if a.lowered == b.lowered { return caseSensitive ? .infinity : 0 }
        if caseSensitive ? a.base == b.base : a.loweredBase == b.loweredBase { return accentCost }
        if isConfusion(a, b, caseSensitive: caseSensitive) { return confusionCost }
        if startsWord || endsWord { return .infinity }
        return editCost
    }

    private static func isConfusion(_ a: Glyph, _ b: Glyph, caseSensitive: Bool) -> Bool {
        if confusions[a.character]?.contains(b.character) == true { return true }
        guard !caseSensitive else { return false }
        for x in a.caseForms {
            guard let partners = confusions[x] else { continue }
            for y in b.caseForms where partners.contains(y) { return true }
        }
        return false
    }
}
