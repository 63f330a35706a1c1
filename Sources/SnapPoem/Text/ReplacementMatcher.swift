/// One application of a `ReplacementSet` to one text: finds every candidate match, keeps the
/// best non-overlapping ones, and writes the new text with its changes.
///
/// Exact and caseless matches are found by comparing FIND with the text at every position.
/// OCR-tolerant matches compare FIND only with words of the text (runs of letters, digits,
/// `_` and `|`), alone or joined to the next words across a single space or a hyphen and line
/// break, so the work grows with the number of words, not with the square of the length.
struct ReplacementMatcher {
    /// A piece of text that could be replaced.
    private struct Candidate {
        var start: Int
        var end: Int
        var pair: Int
        var cost: Double
        var kind: MatchKind
    }

    private var text: CodedText
    private var characters: [Character] { text.characters }
    private let replacementSet: ReplacementSet
    private let options: MatchingOptions
    /// Each FIND's characters as `CodedText` numbers.
    private var findCodes: [[Int]] = []
    /// The text's words: ranges of `characters`.
    private let tokens: [Range<Int>]
    /// For each word but the last, the gap (`MatchUnit.splitGap` or `.hyphenGap`) that joins
    /// it to the next one as pieces of one word, or nil when what lies between them does not.
    private let gaps: [Int?]

    init(text: String, set: ReplacementSet) {
        let coded = CodedText(text)
        self.text = coded
        self.replacementSet = set
        self.options = set.options
        var tokens: [Range<Int>] = []
        var index = 0
        while index < coded.count {
            guard coded.isToken[coded.codes[index]] else {
                index += 1
                continue
            }
            let start = index
            while index < coded.count, coded.isToken[coded.codes[index]] { index += 1 }
            tokens.append(start..<index)
        }
        self.tokens = tokens
        gaps = zip(tokens, tokens.dropFirst()).map { Self.joinCost(coded.characters[$0.upperBound..<$1.lowerBound]) }
    }

    /// Characters of a word for OCR-tolerant matching: a whole word's, plus `|` (a misread l or I).
    static func isTokenCharacter(_ character: Character) -> Bool {
        ReplacementSet.isWordCharacter(character) || character == "|"
    }

    /// What it costs to read the two words around `between` as one: a single space is a split
    /// the OCR made; a hyphen before a line break (or a soft hyphen) is typesetting, free.
    private static func joinCost(_ between: ArraySlice<Character>) -> Int? {
        if between.count == 1, between.first == " " { return MatchUnit.splitGap }
        guard let first = between.first, OCRTextCleanup.isHyphen(first) else { return nil }
        let rest = between.dropFirst()
        if rest.isEmpty { return first == "\u{AD}" ? MatchUnit.hyphenGap : nil }
        let breaks = rest.filter(\.isNewline).count
        let onlySpaces = rest.allSatisfy { $0.isNewline || $0 == " " || $0 == "\t" }
        return breaks == 1 && onlySpaces ? MatchUnit.hyphenGap : nil
    }

    /// Runs the set on the text.
    mutating func personalize(confidences: WordConfidences?) -> PersonalizedText {
        findCodes = replacementSet.replacements.map { $0.find.map { text.code(of: $0) } }
        var candidates = exactCandidates()
        if !options.strictness.isExact { candidates += tolerantCandidates() }
        let chosen = Self.select(candidates, length: characters.count)
        let positions = TextPositions(text)
        let owners = chosen.isEmpty ? nil : confidences?.owners(of: characters)

        var output = ""
        var changes: [TextChange] = []
        var placements: [ReplacementPlacement] = []
        // Characters written so far, counted piece by piece (as `output.count` would be, but
        // without walking the whole string each time).
        var written = 0
        var cursor = 0
        for (number, match) in chosen.enumerated() {
            let pair = replacementSet.replacements[match.pair]
            let original = String(characters[match.start..<match.end])
            let replacement = adaptCase(of: pair.replacement, to: original, find: pair.find, kind: match.kind)
            output += String(characters[cursor..<match.start])
            written += match.start - cursor
            let replacementStart = written
            output += replacement
            written += replacement.count
            let replacementEnd = written
            cursor = match.end
            let breaks = characters[match.start..<match.end].filter(\.isNewline).count
            if breaks > 0 {
                // "Len-\nore! hath" → "Alex!\nhath": the word and what sticks to it stay on the
                // first line; the rest of the second line keeps its line.
                let limit = number + 1 < chosen.count ? chosen[number + 1].start : characters.count
                var attachedEnd = match.end
                while attachedEnd < limit, !characters[attachedEnd].isWhitespace,
                    !Self.isTokenCharacter(characters[attachedEnd])
                {
                    attachedEnd += 1
                }
                output += String(characters[match.end..<attachedEnd])
                written += attachedEnd - match.end
                var restStart = attachedEnd
                while restStart < limit, characters[restStart] == " " || characters[restStart] == "\t" { restStart += 1 }
                if restStart < characters.count, !characters[restStart].isNewline {
                    output += String(repeating: "\n", count: breaks)
                    written += breaks
                }
                cursor = restStart
            }
            placements.append(
                ReplacementPlacement(
                    original: match.start..<cursor, replacement: replacementStart..<replacementEnd, resumesAt: written))
            let confidence = owners.flatMap { confidences?.lowest(in: match.start..<match.end, owners: $0) }
            changes.append(
                TextChange(
                    line: positions.line(at: match.start), column: positions.column(at: match.start),
                    original: original, replacement: replacement, find: pair.find, kind: match.kind,
                    confidence: confidence))
        }
        output += String(characters[cursor...])

        let matchedPairs = Set(chosen.map(\.pair))
        let unmatchedPairs = replacementSet.replacements.indices.filter { !matchedPairs.contains($0) }
        let caselessText = unmatchedPairs.isEmpty ? [] : text.codes.map { text.caseless[$0] }
        // The closest word is looked for for the first FINDs only: each search reads the
        // whole text, and a person reads a hundred suggestions at most.
        let unmatched = unmatchedPairs.enumerated().map { number, index in
            UnmatchedFind(
                find: replacementSet.replacements[index].find,
                closest: number < UnmatchedFind.maximumSuggestions
                    ? closestWord(to: index, caselessText: caselessText, positions: positions) : nil)
        }
        var result = PersonalizedText(
            text: output, changes: changes, unmatched: unmatched, nearMisses: nearMisses(besides: chosen, positions: positions))
        result.placements = placements
        return result
    }

    /// Words not replaced that begin like a one-word FIND, for at least two thirds of its
    /// letters (ignoring case), and are at most one letter longer: "Leno", "Lenor", "Lenora",
    /// and "lenore" when case matters.
    private func nearMisses(besides chosen: [Candidate], positions: TextPositions) -> [NearMiss] {
        let finds = findCodes.indices.filter { index in
            findCodes[index].count >= 3 && findCodes[index].allSatisfy { text.isWord[$0] }
        }
        guard let longest = finds.map({ findCodes[$0].count }).max() else { return [] }
        var replaced = [Bool](repeating: false, count: characters.count)
        for match in chosen { for index in match.start..<match.end { replaced[index] = true } }
        // A near miss shares at least two first letters with FIND: only the FINDs that begin
        // with the word's first letter (ignoring case) are looked at.
        var byFirstLetter: [Int: [Int]] = [:]
        for index in finds { byFirstLetter[text.caseless[findCodes[index][0]], default: []].append(index) }
        var misses: [NearMiss] = []
        for token in tokens where !replaced[token.lowerBound] && token.count <= longest + 1 {
            let word = text.codes[token]
            let candidates = byFirstLetter[text.caseless[word[word.startIndex]]] ?? []
            for index in candidates where token.count <= findCodes[index].count + 1 && !word.elementsEqual(findCodes[index]) {
                let find = findCodes[index]
                var shared = 0
                while shared < min(word.count, find.count),
                    text.caseless[word[word.startIndex + shared]] == text.caseless[find[shared]]
                {
                    shared += 1
                }
                guard shared * 3 >= find.count * 2 else { continue }
                misses.append(
                    NearMiss(
                        find: replacementSet.replacements[index].find, word: String(characters[token]),
                        line: positions.line(at: token.lowerBound), column: positions.column(at: token.lowerBound)))
                break
            }
        }
        return misses
    }

    // MARK: Finding candidates

    /// Every place where FIND is the text, exactly or (with `--ignore-case`) but for case.
    ///
    /// Each FIND is looked for with Knuth–Morris–Pratt, so one FIND costs time in proportion to
    /// the text's length plus its own, whatever both hold. Occurrences of one FIND that overlap
    /// an earlier one of the same kind are left out (the earlier would be chosen anyway), so
    /// a FIND such as "aa" in a text of a thousand "a"s gives 500 candidates, not 999.
    private func exactCandidates() -> [Candidate] {
        let codes = text.codes
        let caselessText = options.caseSensitive ? [] : codes.map { text.caseless[$0] }
        var found: [Candidate] = []
        var failure: [Int] = []
        for (index, pattern) in findCodes.enumerated() {
            guard !pattern.isEmpty, pattern.count <= codes.count else { continue }
            let needsStartBoundary = options.wholeWords && text.isWord[pattern[0]]
            let needsEndBoundary = options.wholeWords && text.isWord[pattern[pattern.count - 1]]
            func fits(_ start: Int) -> Bool {
                let end = start + pattern.count
                if needsStartBoundary, start > 0, text.isWord[codes[start - 1]] { return false }
                if needsEndBoundary, end < codes.count, text.isWord[codes[end]] { return false }
                return true
            }
            let exactStarts = Self.occurrences(of: pattern, in: codes, failure: &failure).filter(fits)
            var exactEnd = 0
            for start in exactStarts where start >= exactEnd {
                found.append(Candidate(start: start, end: start + pattern.count, pair: index, cost: 0, kind: .exact))
                exactEnd = start + pattern.count
            }
            guard !options.caseSensitive else { continue }
            let caselessPattern = pattern.map { text.caseless[$0] }
            var exact = exactStarts.makeIterator()
            var nextExact = exact.next()
            var caselessEnd = 0
            for start in Self.occurrences(of: caselessPattern, in: caselessText, failure: &failure) where fits(start) {
                while let candidate = nextExact, candidate < start { nextExact = exact.next() }
                guard nextExact != start, start >= caselessEnd else { continue }
                found.append(Candidate(start: start, end: start + pattern.count, pair: index, cost: 0, kind: .caseInsensitive))
                caselessEnd = start + pattern.count
            }
        }
        return found
    }

    /// Where `pattern` begins in `sequence`, overlapping occurrences included, in order
    /// (Knuth–Morris–Pratt: time in proportion to both lengths). `failure` is scratch memory.
    private static func occurrences(of pattern: [Int], in sequence: [Int], failure: inout [Int]) -> [Int] {
        let m = pattern.count
        guard m > 0, m <= sequence.count else { return [] }
        failure.removeAll(keepingCapacity: true)
        failure.append(0)
        var length = 0
        for i in 1..<max(1, m) where i < m {
            while length > 0, pattern[i] != pattern[length] { length = failure[length - 1] }
            if pattern[i] == pattern[length] { length += 1 }
            failure.append(length)
        }
        var starts: [Int] = []
        length = 0
        for (i, value) in sequence.enumerated() {
            while length > 0, value != pattern[length] { length = failure[length - 1] }
            if value == pattern[length] { length += 1 }
            if length == m {
                starts.append(i - m + 1)
                length = failure[length - 1]
            }
        }
        return starts
    }

    /// Every word or run of joined words close enough to a FIND to be its OCR misreading.
    private mutating func tolerantCandidates() -> [Candidate] {
        var table = GlyphTable()
        let words = tokens.map { range in text.codes[range].map { table.number(of: $0, in: text) } }
        // FIND as units, when it is one or more words separated by single spaces; other FINDs
        // (with punctuation, say) are matched exactly only.
        let findUnits: [(pair: Int, units: [Int])] = replacementSet.replacements.enumerated().compactMap { index, pair in
            let findWords = pair.find.split(separator: " ", omittingEmptySubsequences: false)
            // Comparing costs FIND's length times the run's: longer FINDs (only a set built
            // in code has them) are matched exactly only.
            guard pair.find.count <= Replacement.maximumLength,
                findWords.allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isTokenCharacter) })
            else { return nil }
            var units: [Int] = []
            for (number, word) in findWords.enumerated() {
                if number > 0 { units.append(MatchUnit.findSpace) }
                units += word.map { table.number(of: text.code(of: $0), in: text) }
            }
            return (index, units)
        }
        let patterns = findUnits.map {
            OCRWordPattern(
                units: $0.units, pair: $0.pair, table: table, caseSensitive: options.caseSensitive,
                costPerCharacter: options.strictness.costPerCharacter)
        }
        guard let mostWords = patterns.map(\.wordCount).max() else { return [] }
        // By number of words and by how a reading may begin, so that a run of words is
        // compared only with the FINDs of one word more or fewer that could begin as it does:
        // the work grows with the FINDs that could match, not with all of them.
        var openings = [[Int: [Int]]](repeating: [:], count: mostWords + 2)
        for (index, pattern) in patterns.enumerated() {
            for key in pattern.openingKeys() { openings[pattern.wordCount][key, default: []].append(index) }
        }
        var lastSeen = [Int](repeating: -1, count: patterns.count)
        var stamp = 0
        var scratch: [Double] = []
        var found: [Candidate] = []
        for first in tokens.indices {
            guard let opening = words[first].first else { continue }
            let keys = table.openingKeys(of: opening, caseSensitive: options.caseSensitive)
            var units: [Int] = []
            var glyphCount = 0
            for last in first..<min(tokens.count, first + mostWords + 1) {
                if last > first {
                    guard let gap = gaps[last - 1] else { break }
                    units.append(gap)
                }
                units += words[last]
                glyphCount += words[last].count
                let wordCount = last - first + 1
                stamp += 1
                for count in max(1, wordCount - 1)...min(mostWords, wordCount + 1) where !openings[count].isEmpty {
                    for key in keys {
                        for index in openings[count][key] ?? [] where lastSeen[index] != stamp {
                            lastSeen[index] = stamp
                            let pattern = patterns[index]
                            // Each glyph more or less costs at least one confusion (two glyphs read as one).
                            guard Double(abs(glyphCount - pattern.glyphCount)) * OCRWordPattern.confusionCost <= pattern.budget,
                                pattern.mayMatch(first: units[0], last: units[units.count - 1])
                            else { continue }
                            let cost = pattern.cost(of: units, scratch: &scratch)
                            guard cost.isFinite else { continue }
                            found.append(
                                Candidate(
                                    start: tokens[first].lowerBound, end: tokens[last].upperBound, pair: pattern.pair,
                                    cost: cost, kind: .ocrTolerant))
                        }
                    }
                }
            }
        }
        return found
    }

    /// The best candidates that do not overlap, in text order.
    private static func select(_ candidates: [Candidate], length: Int) -> [Candidate] {
        func rank(_ kind: MatchKind) -> Int {
            switch kind {
            case .exact: 0
            case .caseInsensitive: 1
            case .ocrTolerant: 2
            }
        }
        let ordered = candidates.sorted { a, b in
            if a.cost != b.cost { return a.cost < b.cost }
            if rank(a.kind) != rank(b.kind) { return rank(a.kind) < rank(b.kind) }
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end > b.end }
            return a.pair < b.pair
        }
        // Whether a candidate overlaps one already chosen is a count of taken characters in
        // its range: a Fenwick tree answers it in log(length) steps, however long the range.
        var taken = TakenCharacters(count: length)
        var chosen: [Candidate] = []
        for candidate in ordered where !taken.any(in: candidate.start..<candidate.end) {
            taken.take(candidate.start..<candidate.end)
            chosen.append(candidate)
        }
        return chosen.sorted { $0.start < $1.start }
    }

    // MARK: Writing the result

    /// REPLACE in the case of the text it replaces, when case is ignored: LENORE → ALEX,
    /// lenore → alex, Lenore → Alex. Text cased like FIND, or in mixed case, gets REPLACE as
    /// written.
    private func adaptCase(of replacement: String, to original: String, find: String, kind: MatchKind) -> String {
        guard !options.caseSensitive else { return replacement }
        let style = CaseStyle(original)
        guard style != CaseStyle(find) else { return replacement }
        switch style {
        case .upper: return replacement.uppercased()
        case .lower: return replacement.lowercased()
        case .title:
            guard let first = replacement.first else { return replacement }
            let rest = replacement.dropFirst()
            let replacementStyle = CaseStyle(replacement)
            let tail = replacementStyle == .upper || replacementStyle == .lower ? rest.lowercased() : String(rest)
            return first.uppercased() + tail
        case .mixed, .none: return replacement
        }
    }

    /// The word (or run of words, for a FIND of several) nearest to the FIND of pair `index`
    /// by edit distance, ignoring case, when at most about a third of its characters differ.
    /// `caselessText` is the text's `CodedText.caseless` numbers.
    private func closestWord(to index: Int, caselessText: [Int], positions: TextPositions) -> UnmatchedFind.Suggestion? {
        // An edit distance costs the product of both lengths: no suggestion for FINDs longer
        // than those taken from outside.
        guard findCodes[index].count <= Replacement.maximumLength else { return nil }
        let target = findCodes[index].map { text.caseless[$0] }
        let wordCount = replacementSet.replacements[index].find.split(separator: " ").count
        guard wordCount > 0 else { return nil }  // a FIND of spaces only has no word to suggest
        let limit = max(1, (target.count + 1) / 3)
        var best: (distance: Int, range: Range<Int>)?
        var scratch: [Int] = []
        // How many of each character the target has, to skip words that share too few.
        var available = [Int](repeating: 0, count: text.caselessCount)
        for first in tokens.indices where first + wordCount <= tokens.count {
            let range = tokens[first].lowerBound..<tokens[first + wordCount - 1].upperBound
            guard abs(range.count - target.count) <= limit else { continue }
            let candidate = caselessText[range]
            for code in target { available[code] += 1 }
            var shared = 0
            for code in candidate where available[code] > 0 {
                available[code] -= 1
                shared += 1
            }
            for code in target { available[code] = 0 }
            // Each character not shared costs at least one edit.
            guard max(candidate.count, target.count) - shared <= limit else { continue }
            let distance = editDistance(candidate, target, limit: limit, scratch: &scratch)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (distance, range) }
        }
        guard let best else { return nil }
        return UnmatchedFind.Suggestion(
            word: String(characters[best.range]), line: positions.line(at: best.range.lowerBound),
            column: positions.column(at: best.range.lowerBound))
    }
}

/// Which characters of a text are already replaced, as a Fenwick (binary indexed) tree of
/// counts: marking a character and counting the marked ones in a range each take
/// log(count) steps.
private struct TakenCharacters {
    private var tree: [Int]

    init(count: Int) {
        tree = [Int](repeating: 0, count: count + 1)
    }

    /// Marked characters before `end`.
    private func marked(before end: Int) -> Int {
        var total = 0
        var index = end
        while index > 0 {
            total += tree[index]
            index -= index & -index
        }
        return total
    }

    /// Whether any character of `range` is marked.
    func any(in range: Range<Int>) -> Bool {
        marked(before: range.upperBound) > marked(before: range.lowerBound)
    }

    /// Marks every character of `range` (none of which is marked yet).
    mutating func take(_ range: Range<Int>) {
        for position in range {
            var index = position + 1
            while index < tree.count {
                tree[index] += 1
                index += index & -index
            }
        }
    }
}

/// The letter case a text is written in.
private enum CaseStyle {
    case upper, lower, title, mixed, none

    init(_ text: String) {
        let letters = text.filter { $0.isCased }
        guard let first = letters.first else {
            self = .none
            return
        }
        if letters.count > 1, letters.allSatisfy(\.isUppercase) {
            self = .upper
        } else if letters.allSatisfy(\.isLowercase) {
            self = .lower
        } else if first.isUppercase, letters.dropFirst().allSatisfy(\.isLowercase) {
            self = .title
        } else {
            self = .mixed
        }
    }
}

/// Levenshtein distance between two sequences of numbers, or `limit + 1` as soon as it must
/// exceed `limit`; `scratch` is reused between calls.
func editDistance(_ a: ArraySlice<Int>, _ b: [Int], limit: Int, scratch: inout [Int]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    if scratch.count < 2 * width { scratch = [Int](repeating: 0, count: 2 * width) }
    for j in 0...b.count { scratch[j] = j }
    var previous = 0, current = width
    for i in 1...a.count {
        scratch[current] = i
        var rowMinimum = i
        for j in 1...b.count {
            let substitution = scratch[previous + j - 1] + (a[a.startIndex + i - 1] == b[j - 1] ? 0 : 1)
            scratch[current + j] = min(scratch[previous + j] + 1, scratch[current + j - 1] + 1, substitution)
            rowMinimum = min(rowMinimum, scratch[current + j])
        }
        if rowMinimum > limit { return limit + 1 }
        swap(&previous, &current)
    }
    return scratch[previous + b.count]
}
