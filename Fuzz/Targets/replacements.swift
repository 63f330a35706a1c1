// fuzz-modules: SnapPoem
//
// Personalisation input: the first byte chooses what the rest is.
//   0 mod 3: a replacements file; parsed, rendered back and parsed again (the pairs must
//            survive), then applied to a stanza of "Lenore" with options from byte 1.
//   1 mod 3: one `--replace` argument, applied the same way.
//   2 mod 3: a recognised text, to which a fixed set of pairs is applied (what OCR output of
//            any shape meets).
import Foundation

@testable import SnapPoem

private let stanza = """
    Ah, broken is the golden bowl! the spirit flown forever!
    Let the bell toll!—a saintly soul floats on the Stygian river;
    And, Guy De Vere, hast thou no tear?—weep now or never more!
    See! on yon drear and rigid bier low lies thy love, Lenore!
    """

private let fixedPairs = [
    Replacement(find: "Lenore", replaceWith: "Alex"), Replacement(find: "Guy De Vere", replaceWith: "Sam"),
    Replacement(find: "a=b", replaceWith: "c"), Replacement(find: "Alex", replaceWith: "Lenore"),
]

private func options(_ byte: UInt8) -> MatchingOptions {
    var options = MatchingOptions(caseSensitive: byte & 1 == 0, wholeWords: byte & 2 == 0)
    let levels = Strictness.named.map(\.strictness)
    if !levels.isEmpty { options.strictness = levels[Int(byte >> 2) % levels.count] }
    return options
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplacements(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let mode = bytes[0] % 3
    let matching = options(bytes[1])
    let text = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: size - 2), as: UTF8.self)
    switch mode {
    case 0:
        guard let pairs = try? ReplacementsFile.parse(text, path: "fuzz") else { return 0 }
        let again = try? ReplacementsFile.parse(ReplacementsFile.render(pairs), path: "fuzz")
        precondition(again == pairs, "render then parse changed the pairs")
        let result = ReplacementSet(pairs, options: matching).apply(to: stanza)
        precondition(result.changes.count <= stanza.count, "more changes than characters")
    case 1:
        guard let pair = try? Replacement(parsing: text) else { return 0 }
        _ = ReplacementSet([pair], options: matching).apply(to: stanza)
    default:
        let words = text.split(separator: " ").prefix(200).enumerated().map { index, word in
            RecognizedWord(
                text: String(word), confidence: Double(index % 100),
                boundingBox: BoundingBox(left: index, top: 0, right: index + 1, bottom: 1))
        }
        _ = ReplacementSet(fixedPairs, options: matching).apply(to: text, words: words)
    }
    return 0
}
