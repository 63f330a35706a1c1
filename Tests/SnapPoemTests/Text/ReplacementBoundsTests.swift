import Foundation
import Testing

@testable import SnapPoem

/// The bounds of replacement sets: what is refused from outside (FIND and REPLACE over 256
/// characters, more than 100 000 in all, more than 10 000 pairs), and sets built in code past
/// them, which the matcher must still apply correctly (its work grows with what it compares,
/// see `ReplacementSet.maximumTotalLength`).
@Suite("Replacement bounds: refused from outside, applied correctly past them in code")
struct ReplacementBoundsTests {
    /// `count` CJK letters, distinct up to 20 000, from U+4E00 + `start` on.
    static func letters(_ count: Int, from start: Int = 0) -> [Character] {
        // Cycling through the 20 000 letters from U+4E00 (below the surrogates).
        (start..<start + count).map { Character(Unicode.Scalar(0x4E00 + $0 % 20_000)!) }
    }

    @Test("--replace: FIND or REPLACE of 257 characters is refused, 256 taken")
    func argumentLengths() throws {
        #expect(throws: SnapPoemError.self) { try Replacement(parsing: String(Self.letters(257)) + "=x") }
        #expect(throws: SnapPoemError.self) { try Replacement(parsing: "Lenore=" + String(repeating: "é", count: 257)) }
        let longest = try Replacement(parsing: String(Self.letters(256)) + "=" + String(repeating: "y", count: 256))
        #expect(longest.find.count == 256)
        do {
            _ = try Replacement(parsing: String(Self.letters(300)) + "=x")
        } catch {
            #expect(error.description.contains("FIND '\(String(Self.letters(24)))…' has 300 characters; at most 256 are taken"))
        }
    }

    @Test("A replacements file names the line of a FIND too long, and of the pairs past 100 000 characters")
    func fileLengths() {
        let long = "# snap-poem replacements v1\nLenore=Alex\n\(String(Self.letters(81_000)))=x\n"
        #expect(
            throws: SnapPoemError.invalidReplacementsFile(
                path: "p", line: 3, reason: "FIND '\(String(Self.letters(24)))…' has 81000 characters; at most 256 are taken")
        ) {
            try ReplacementsFile.parse(long, path: "p")
        }
        // 500 distinct pairs of 200 + 1 characters: past 100 000 at pair 498 (line 499).
        let many =
            "# snap-poem replacements v1\n"
            + (0..<500).map { "\(String(Self.letters(196, from: $0 * 196)))\(String(format: "%04d", $0))=x\n" }.joined()
        #expect(
            throws: SnapPoemError.invalidReplacementsFile(
                path: "p", line: 499, reason: "the pairs up to this line hold 100098 characters; at most 100000 are taken")
        ) {
            try ReplacementsFile.parse(many, path: "p")
        }
    }

    @Test("Pairs that skip parsing (a page's name fields) meet the same bounds in ScanConfiguration")
    func leadingPairs() {
        var configuration = ScanConfiguration()
        let long = Replacement(find: String(Self.letters(300)), replaceWith: "x")
        #expect(throws: ScanOptionError.self) {
            try configuration.apply([:], replacementSource: { $0 }, leadingReplacements: [(long, "the form")])
        }
    }

    @Test("FINDs of 20 000 and 2 000 distinct letters, built in code: found where they are, and only there")
    func hugeFind() {
        // FINDs over 256 characters (only a set built in code has them) are matched exactly:
        // an OCR-tolerant comparison or a suggestion costs FIND's length times the run's.
        let find = String(Self.letters(2_000))
        let set = ReplacementSet([Replacement(find: find, replaceWith: "Alex")])
        #expect(set.apply(to: "before \(find) after").text == "before Alex after")
        let huge = String(Self.letters(20_000))
        let missing = ReplacementSet([Replacement(find: huge, replaceWith: "Alex")]).apply(
            to: "before \(String(Self.letters(19_999))) after x\(huge)")
        #expect(missing.changes.isEmpty)
        #expect(missing.unmatched.map(\.find) == [huge])
    }

    @Test("10 000 one-letter FINDs, 3 000 of them in the text: 3 000 changes, suggestions for the first 100 unmatched only")
    func manyFinds() {
        let letters = Self.letters(10_000)
        let set = ReplacementSet(letters.map { Replacement(find: String($0), replaceWith: "x") })
        let text = letters.prefix(3_000).map(String.init).joined(separator: " ")
        let result = set.apply(to: text)
        #expect(result.changes.count == 3_000)
        #expect(result.text == Array(repeating: "x", count: 3_000).joined(separator: " "))
        #expect(result.unmatched.count == 7_000)
        #expect(result.unmatched.dropFirst(UnmatchedFind.maximumSuggestions).allSatisfy { $0.closest == nil })
    }

    @Test("Overlapping occurrences of one FIND: the leftmost of each run, as before")
    func selfOverlap() {
        let options = MatchingOptions(caseSensitive: false, wholeWords: false)
        let set = ReplacementSet([Replacement(find: "aa", replaceWith: "b")], options: options)
        #expect(set.apply(to: "aaaaa").text == "bba")
        // An exact occurrence still wins over a caseless one that overlaps it.
        #expect(set.apply(to: "Aaa").text == "Ab")
        let many = ReplacementSet(
            (1...100).map { Replacement(find: String(repeating: "a", count: $0), replaceWith: "b") }, options: options)
        let result = many.apply(to: String(repeating: "a", count: 10_000))
        #expect(result.text == String(repeating: "b", count: 100))
    }

    @Test("A FIND whose first letter OCR reads as two (m as rn) is still found through the index of openings")
    func openingIndex() {
        let set = ReplacementSet([Replacement(find: "mabel", replaceWith: "Alex")])
        #expect(set.apply(to: "sweet rnabel sleeps").text == "sweet Alex sleeps")
        let merged = ReplacementSet([Replacement(find: "rnabel", replaceWith: "Alex")])
        #expect(merged.apply(to: "sweet mabel sleeps").text == "sweet Alex sleeps")
    }
}
