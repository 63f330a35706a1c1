import Foundation
import SnapPoem
import Testing

/// Inputs that fuzzing found to trap, kept as regression tests (their bytes are also in
/// Fuzz/Corpus, which `make fuzz-smoke` replays).
@Suite("Fuzzing findings, fixed")
struct FuzzFindingTests {
    @Test("A FIND of spaces only that matches nothing: no suggestion, no trap (it indexed tokens[-1])")
    func findOfSpacesOnly() throws {
        // Parsed from outside, a FIND of spaces only is refused now; built in code it is
        // still a pair the matcher must survive.
        #expect(
            throws: SnapPoemError.invalidOption(option: "replace", reason: "'   =:A' has nothing to find before '='")
        ) { try Replacement(parsing: "   =:A") }
        let pair = Replacement(find: "   ", replaceWith: ":A")
        let result = ReplacementSet([pair]).apply(to: "See! on yon drear and rigid bier low lies thy love, Lenore!")
        #expect(result.text == "See! on yon drear and rigid bier low lies thy love, Lenore!")
        #expect(result.unmatched.map(\.find) == ["   "])
        #expect(result.unmatched.first?.closest == nil)
    }
}
