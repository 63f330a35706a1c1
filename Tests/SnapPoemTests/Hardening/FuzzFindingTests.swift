import Foundation
import SnapPoem
import Testing

/// Inputs that fuzzing found to trap, kept as regression tests (their bytes are also in
/// Fuzz/Corpus, which `make fuzz-smoke` replays).
@Suite("Fuzzing findings, fixed")
struct FuzzFindingTests {
    @Test("A FIND of spaces only that matches nothing: no suggestion, no trap (it indexed tokens[-1])")
    func findOfSpacesOnly() throws {
        let pair = try Replacement(parsing: "   =:A")
        let result = ReplacementSet([pair]).apply(to: "See! on yon drear and rigid bier low lies thy love, Lenore!")
        #expect(result.text == "See! on yon drear and rigid bier low lies thy love, Lenore!")
        #expect(result.unmatched.map(\.find) == ["   "])
        #expect(result.unmatched.first?.closest == nil)
    }
}
