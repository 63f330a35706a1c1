import SnapPoem
import Testing

/// One line of the OCR-tolerance table: does FIND match the text's word?
struct ToleranceCase: CustomTestStringConvertible, Sendable {
    let find: String
    let text: String
    let matches: Bool
    let why: String
    var caseSensitive = true

    var testDescription: String { "\(matches ? "✓" : "✗") \(find) ~ \(text.debugDescription): \(why)" }

    /// Whether the default set (OCR-tolerant, `strictness`) replaced something in `text`.
    func replaced(strictness: Strictness = .normal) -> Bool {
        let set = ReplacementSet(
            [Replacement(find: find, replaceWith: "Alex")],
            options: MatchingOptions(caseSensitive: caseSensitive, strictness: strictness))
        return !set.apply(to: text).changes.isEmpty
    }
}

/// Misreadings that must be found, and near misses that must not.
let toleranceTable: [ToleranceCase] = [
    // Found: what OCR does to a name.
    ToleranceCase(find: "Lenore", text: "thy love, Lenorc!", matches: true, why: "e read as c"),
    ToleranceCase(find: "Lenore", text: "thy love, Lcnore!", matches: true, why: "e read as c inside"),
    ToleranceCase(find: "Lenore", text: "thy love, Lcnorc!", matches: true, why: "two c/e confusions"),
    ToleranceCase(find: "Lenore", text: "thy love, L enore!", matches: true, why: "a space inside the word"),
    ToleranceCase(find: "Lenore", text: "thy love, Len ore!", matches: true, why: "a space in the middle"),
    ToleranceCase(find: "Lenore", text: "The sweet Len-\nore hath", matches: true, why: "hyphenated across a line end"),
    ToleranceCase(find: "Lenore", text: "The sweet Len-  \n  ore hath", matches: true, why: "hyphen, spaces and a line end"),
    ToleranceCase(find: "Lenore", text: "The sweet Len\u{AD}ore hath", matches: true, why: "soft hyphen"),
    ToleranceCase(find: "Lenore", text: "thy love, 1enore!", matches: true, why: "l/1 — lowercase find", caseSensitive: false),
    ToleranceCase(find: "lenore", text: "thy love, Ienore!", matches: true, why: "l read as I"),
    ToleranceCase(find: "lenore", text: "thy love, |enore!", matches: true, why: "l read as |"),
    ToleranceCase(find: "Lenore", text: "thy love, Len0re!", matches: true, why: "o read as 0"),
    ToleranceCase(find: "Lénore", text: "thy love, Lenore!", matches: true, why: "accent lost"),
    ToleranceCase(find: "Lenore", text: "thy love, Lénore!", matches: true, why: "accent added"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenare!", matches: true, why: "one vowel misread inside (a real Tesseract misreading)"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenone!", matches: true, why: "one consonant misread inside"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenorre!", matches: true, why: "one consonant doubled"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenoe!", matches: true, why: "one consonant lost"),
    ToleranceCase(find: "Amelia", text: "sweet Arnelia sleeps", matches: true, why: "m read as rn"),
    ToleranceCase(find: "Marmaduke", text: "sweet Marrnaduke sleeps", matches: true, why: "m read as rn, long name"),
    ToleranceCase(find: "Claude", text: "sweet Dlaude sleeps", matches: false, why: "a different first letter"),
    ToleranceCase(find: "Edward", text: "sweet Eclward sleeps", matches: true, why: "d read as cl"),
    ToleranceCase(find: "Gwendolyn", text: "sweet Gvvendolyn sleeps", matches: true, why: "w read as vv"),
    ToleranceCase(find: "Wilfred", text: "sweet Wiltred sleeps", matches: true, why: "f read as t"),
    ToleranceCase(find: "Guy De Vere", text: "And, Guy De Verc, hast", matches: true, why: "several words, one confusion"),
    ToleranceCase(find: "Guy De Vere", text: "And, Guy DeVere, hast", matches: true, why: "a space of FIND lost"),
    ToleranceCase(find: "Guy De Vere", text: "And, Guy De V ere, hast", matches: true, why: "a space added inside a word of FIND"),
    ToleranceCase(find: "Lenore", text: "LENORC!", matches: true, why: "caseless and misread", caseSensitive: false),
    ToleranceCase(find: "Alexandria", text: "in Alexanclria we", matches: true, why: "d read as cl in a long name"),
    ToleranceCase(find: "Lenore", text: "Lenore's hair", matches: true, why: "possessive: the apostrophe ends the word"),

    // Not found: another word, or too far.
    ToleranceCase(find: "Lenore", text: "thy love, Lenora!", matches: false, why: "Lenora is another name (last vowel)"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenores!", matches: false, why: "a letter added at the end: another word"),
    ToleranceCase(
        find: "Lenore", text: "thy love, Lenored!", matches: false, why: "a letter added at the end, as the exact whole-word rule"),
    ToleranceCase(find: "Lenore", text: "thy love, Elenore!", matches: false, why: "a letter added at the start: another name"),
    ToleranceCase(find: "Lenore", text: "thy love, Leonore!", matches: false, why: "a vowel added: another name"),
    ToleranceCase(find: "Lenore", text: "I ignore thee", matches: false, why: "ignore is a word, not Lenore"),
    ToleranceCase(find: "Lenore", text: "I ignore thee", matches: false, why: "ignore, ignoring case", caseSensitive: false),
    ToleranceCase(find: "Lenore", text: "thy love, Tenore!", matches: false, why: "a different first letter"),
    ToleranceCase(find: "Lenore", text: "the Lahore road", matches: false, why: "Lahore: two differences"),
    ToleranceCase(find: "Lenore", text: "thy love, Lenor!", matches: false, why: "last letter lost: too close to other names"),
    ToleranceCase(find: "Lenore", text: "thy love, enore!", matches: false, why: "first letter lost"),
    ToleranceCase(find: "Clover", text: "thy lover", matches: false, why: "first letter lost makes another word"),
    ToleranceCase(find: "Roberts", text: "and Robert said", matches: false, why: "last letter lost makes another name"),
    ToleranceCase(find: "Alexis", text: "and Alexia said", matches: false, why: "last letter changed makes another name"),
    ToleranceCase(find: "Martin", text: "and Martie said", matches: false, why: "last letter changed"),
    ToleranceCase(find: "Lenore", text: "thy love, Leno!", matches: false, why: "two letters lost"),
    ToleranceCase(find: "Lenore", text: "thy love, lenore!", matches: false, why: "case differs and matching is case-sensitive"),
    ToleranceCase(find: "Lenore", text: "a Lente lore", matches: false, why: "Lente"),
    ToleranceCase(find: "Lenore", text: "the sonore sound", matches: false, why: "sonore"),
    ToleranceCase(find: "Lenore", text: "Len or e", matches: false, why: "three pieces: one split per word at most"),
    ToleranceCase(find: "Lenore", text: "Lenore-like", matches: true, why: "hyphen mid-line is a word boundary"),
    ToleranceCase(find: "Will", text: "he will go", matches: false, why: "will is not Will when case matters"),
    ToleranceCase(find: "Rose", text: "the sun rose", matches: false, why: "rose is not Rose"),
    ToleranceCase(find: "Harry", text: "and Larry said", matches: false, why: "Larry is another name"),
    ToleranceCase(find: "Harry", text: "and Hardy said", matches: false, why: "five letters allow no unrelated letter"),
    ToleranceCase(find: "Maria", text: "and Mario said", matches: false, why: "last vowel differs"),
    ToleranceCase(find: "Anna", text: "and Anne said", matches: false, why: "last vowel differs"),
    ToleranceCase(find: "Jon", text: "and Jan said", matches: false, why: "short names allow only confusions"),
    ToleranceCase(find: "Eve", text: "at eve she", matches: false, why: "case-sensitive short name"),
    ToleranceCase(find: "Hope", text: "with Hape, that", matches: false, why: "four letters allow no unrelated letter"),
    ToleranceCase(find: "Lenore", text: "to-night my heart", matches: false, why: "unrelated text"),
    ToleranceCase(find: "Lenore", text: "Len\nore", matches: false, why: "a line break without a hyphen is two words"),
    ToleranceCase(find: "Lenore", text: "Len—\nore", matches: false, why: "an em dash at a line end never joins"),
]

@Suite("OCR-tolerant matching: precision first")
struct OCRTolerantMatchingTests {
    @Test("Each misreading is found and each near miss is not, at the default strictness", arguments: toleranceTable)
    func table(_ example: ToleranceCase) {
        #expect(example.replaced() == example.matches, "\(example.why)")
    }

    @Test("Precision and recall over the table are both 100 %")
    func figures() {
        var truePositives = 0, falsePositives = 0, falseNegatives = 0
        for example in toleranceTable {
            switch (example.matches, example.replaced()) {
            case (true, true): truePositives += 1
            case (false, true): falsePositives += 1
            case (true, false): falseNegatives += 1
            case (false, false): break
            }
        }
        let precision = Double(truePositives) / Double(max(1, truePositives + falsePositives))
        let recall = Double(truePositives) / Double(max(1, truePositives + falseNegatives))
        print("OCR-tolerant table: \(toleranceTable.count) cases, precision \(precision), recall \(recall)")
        #expect(precision == 1)
        #expect(recall == 1)
    }

    @Test(
        "Strictness: what each level accepts",
        arguments: [
            ("Lenorc", [false, true, true, true]),
            ("Lcnorc", [false, false, true, true]),
            ("Lenone", [false, false, true, true]),
            ("L enore", [false, true, true, true]),
            ("ignore", [false, false, false, true]),
            ("Lenora", [false, false, false, false]),
            ("Lenores", [false, false, false, false]),
        ])
    func strictnessLevels(word: String, accepted: [Bool]) {
        let levels: [Strictness] = [.exact, .strict, .normal, .loose]
        for (level, expected) in zip(levels, accepted) {
            let example = ToleranceCase(find: "Lenore", text: "and \(word) and", matches: expected, why: "", caseSensitive: false)
            #expect(example.replaced(strictness: level) == expected, "\(word) at \(level)")
        }
    }

    @Test("Strictness levels are known by name, and a custom one describes itself")
    func strictnessNames() {
        #expect(Strictness(named: "strict") == .strict)
        #expect(Strictness(named: "LOOSE") == .loose)
        #expect(Strictness(named: "exact")?.isExact == true)
        #expect(Strictness(named: "fuzzy") == nil)
        #expect(Strictness.normal.description == "normal")
        #expect(Strictness(costPerCharacter: 0.3).description == "0.3 per character")
    }

    @Test("A tolerant change says so, and keeps what the image said")
    func tolerantChange() {
        let set = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex")])
        let result = set.apply(to: "Lenore\n\nSee! thy love, Lenorc!\n")
        #expect(result.text == "Alex\n\nSee! thy love, Alex!\n")
        #expect(
            result.changes == [
                TextChange(line: 1, column: 1, original: "Lenore", replacement: "Alex", find: "Lenore", kind: .exact),
                TextChange(line: 3, column: 16, original: "Lenorc", replacement: "Alex", find: "Lenore", kind: .ocrTolerant),
            ])
    }

    @Test("An exact match wins over a tolerant one of another pair")
    func exactWins() {
        let set = ReplacementSet([Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "Lenorc", replaceWith: "Sam")])
        #expect(set.apply(to: "Lenorc and Lenore").text == "Sam and Alex")
    }
}
