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
/// edit distance that decides OCR-tolerant matches. The weights and the differences that
/// never match are documented on `Strictness`.
///
/// Bounded by construction: what it keeps grows with FIND's length only (a few numbers per
/// unit of FIND; the cost of reading a glyph where FIND has another is worked out from the
/// `GlyphTable`'s numbers when it is needed, never tabled for every glyph), and one
/// comparison costs at most (units of FIND + 1) × (units of the candidate + 1) steps, in
/// three rows of scratch memory, stopping as soon as two rows in a row are over `budget`.
///
/// A class, so that the many comparisons of one text share it without copying it.
final class OCRWordPattern {
    /// A lost or added accent.
    static let accentCost = 0.25
    /// A typical OCR confusion, one glyph for one or two for one.
    static let confusionCost = 0.35
    /// A space inside a word of FIND, or a space of FIND missing in the text.
    static let splitCost = 0.35
    /// Any other changed, lost or added consonant.
    static let editCost = 1.0

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

    private let table: GlyphTable
    private let caseSensitive: Bool
    /// Whether unit `i` begins or ends a word of FIND (a changed letter there never matches).
    private let atWordEdge: [Bool]
    /// Losing unit `i` of FIND.
    private let deletion: [Double]
    /// Whether the text may hold an extra unit before FIND's unit `i` (inside a word only).
    private let insertsBefore: [Bool]
    /// Glyphs that FIND's units `i - 2` and `i - 1` together may be read as.
    private let mergedInto: [[Int]]
    /// Pairs of glyphs that FIND's unit `i - 1` may be read as.
    private let splitInto: [[(Int, Int)]]

    /// Compiles FIND (already numbered in `table`, which holds every glyph of the text too).
    init(units: [Int], pair: Int, table: GlyphTable, caseSensitive: Bool, costPerCharacter: Double) {
        self.units = units
        self.pair = pair
        self.table = table
        self.caseSensitive = caseSensitive
        wordCount = units.filter { $0 == MatchUnit.findSpace }.count + 1
        glyphCount = units.filter { $0 >= 0 }.count
        budget = costPerCharacter * Double(glyphCount)
        let m = units.count

        var atWordEdge = [Bool](repeating: false, count: m)
        var deletion = [Double](repeating: .infinity, count: m)
        for (i, unit) in units.enumerated() {
            guard unit >= 0 else {
                deletion[i] = Self.splitCost
                continue
            }
            let startsWord = i == 0 || units[i - 1] < 0
            let endsWord = i == m - 1 || units[i + 1] < 0
            atWordEdge[i] = startsWord || endsWord
            deletion[i] = table.isVowel[unit] || startsWord || endsWord ? .infinity : Self.editCost
        }
        self.atWordEdge = atWordEdge
        self.deletion = deletion
        insertsBefore = (0...m).map { $0 > 0 && $0 < m && units[$0 - 1] >= 0 && units[$0] >= 0 }

        var mergedInto = [[Int]](repeating: [], count: m + 1)
        var splitInto = [[(Int, Int)]](repeating: [], count: m + 1)
        for i in 1...max(1, m) where i <= m && units[i - 1] >= 0 {
            let single = table.spelling(of: units[i - 1], caseSensitive: caseSensitive)
            for (double, singles) in Self.doubleConfusions where singles.contains(single) {
                let letters = double.map(String.init)
                for first in table.glyphs(spelled: letters[0], caseSensitive: caseSensitive) {
                    for second in table.glyphs(spelled: letters[1], caseSensitive: caseSensitive) {
                        splitInto[i].append((first, second))
                    }
                }
            }
            if i >= 2, units[i - 2] >= 0,
                let singles = Self.doubleConfusions[table.spelling(of: units[i - 2], caseSensitive: caseSensitive) + single]
            {
                mergedInto[i] = singles.flatMap { table.glyphs(spelled: $0, caseSensitive: caseSensitive) }
            }
        }
        self.mergedInto = mergedInto
        self.splitInto = splitInto
    }

    /// The cost of reading glyph `found` where FIND has its unit `i` (a glyph).
    @inline(__always)
    private func substitution(_ i: Int, _ found: Int) -> Double {
        let unit = units[i]
        if unit == found { return 0 }
        if table.lowered[unit] == table.lowered[found] { return caseSensitive ? .infinity : 0 }
        if caseSensitive ? table.base[unit] == table.base[found] : table.loweredBase[unit] == table.loweredBase[found] {
            return Self.accentCost
        }
        if table.isConfusion(unit, found, caseSensitive: caseSensitive) { return Self.confusionCost }
        return atWordEdge[i] ? .infinity : Self.editCost
    }

    /// Keys under which this FIND is filed in an index of how readings may begin: every
    /// glyph `g` for which `mayMatch(first: g, …)` can hold shares at least one key with
    /// `GlyphTable.openingKeys(of: g, …)`: a glyph of the same spelling without accents
    /// (what equal, caseless and accented readings share), a confusion partner, or a glyph
    /// that two glyphs of FIND, or one, may be read as.
    func openingKeys() -> [Int] {
        guard let first = units.first, first >= 0 else { return [] }
        var keys = [GlyphKey.spelling(caseSensitive ? table.base[first] : table.loweredBase[first])]
        let partners =
            caseSensitive
            ? table.confusionPartners[first] : table.confusionPartners[first] | table.caselessConfusionPartners[first]
        keys += GlyphKey.confusions(partners)
        if units.count >= 2 { keys += mergedInto[2].map(GlyphKey.glyph) }
        keys += splitInto[1].map { GlyphKey.glyph($0.0) }
        return Array(Set(keys))
    }

    /// Whether a candidate beginning with glyph `first` and ending with glyph `last` may be
    /// a reading of FIND at all: a quick test before `cost(of:scratch:)` (FIND's first and
    /// last letters must be right or plausibly misread, so this rules out most words at once).
    func mayMatch(first: Int, last: Int) -> Bool {
        let m = units.count
        guard m > 0, units[0] >= 0, units[m - 1] >= 0 else { return false }
        let opens =
            substitution(0, first).isFinite || (m >= 2 && mergedInto[2].contains(first)) || splitInto[1].contains { $0.0 == first }
        guard opens else { return false }
        return substitution(m - 1, last).isFinite || (m >= 2 && mergedInto[m].contains(last)) || splitInto[m].contains { $0.1 == last }
    }

    /// The cost of reading `candidate` (glyph numbers and gap markers) as FIND, or
    /// `.infinity` when it exceeds `budget` or makes another word. `scratch` is reused
    /// between calls; it holds three rows of `candidate.count + 1` costs.
    func cost(of candidate: [Int], scratch: inout [Double]) -> Double {
        let m = units.count, k = candidate.count
        let width = k + 1
        if scratch.count < 3 * width { scratch = [Double](repeating: .infinity, count: 3 * width) }
        // Row i lives at (i % 3) * width: row i is reached from rows i - 1 and i - 2 only.
        func row(_ i: Int) -> Int { (i % 3) * width }
        for j in 0..<width { scratch[j] = .infinity }
        scratch[0] = 0
        var previousRowMinimum = Double.infinity
        var rowMinimum = 0.0
        for i in 0...m {
            let here = row(i)
            let above = i > 0 ? row(i - 1) : 0
            let twoAbove = i > 1 ? row(i - 2) : 0
            if i > 0 { rowMinimum = .infinity }
            for j in 0...k where i > 0 || j > 0 {
                var best = Double.infinity
                if i > 0 {
                    let unit = units[i - 1]
                    if j > 0 {
                        let found = candidate[j - 1]
                        let step: Double
                        if found >= 0 {
                            step = unit >= 0 ? substitution(i - 1, found) : .infinity
                        } else {
                            step = unit == MatchUnit.findSpace ? 0 : .infinity
                        }
                        best = scratch[above + j - 1] + step
                    }
                    best = min(best, scratch[above + j] + deletion[i - 1])
                }
                if j > 0, insertsBefore[i] {
                    let found = candidate[j - 1]
                    let step: Double
                    switch found {
                    case MatchUnit.splitGap: step = Self.splitCost
                    case MatchUnit.hyphenGap: step = 0
                    default: step = found >= 0 ? (table.isVowel[found] ? .infinity : Self.editCost) : .infinity
                    }
                    best = min(best, scratch[here + j - 1] + step)
                }
                if i > 1, j > 0, !mergedInto[i].isEmpty, mergedInto[i].contains(candidate[j - 1]) {
                    best = min(best, scratch[twoAbove + j - 1] + Self.confusionCost)
                }
                if i > 0, j > 1, !splitInto[i].isEmpty,
                    splitInto[i].contains(where: { $0.0 == candidate[j - 2] && $0.1 == candidate[j - 1] })
                {
                    best = min(best, scratch[above + j - 2] + Self.confusionCost)
                }
                scratch[here + j] = best
                rowMinimum = min(rowMinimum, best)
            }
            // A row is reached only from the two rows above it (two glyphs read as one).
            if rowMinimum > budget, previousRowMinimum > budget { return .infinity }
            previousRowMinimum = rowMinimum
        }
        let total = scratch[row(m) + k]
        return total <= budget + 1e-9 ? total : .infinity
    }
}
