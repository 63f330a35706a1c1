import Foundation
import SnapPoem

/// What personalisation did to one poem, for standard error: a warning for each FIND that
/// matched nothing (always), and with `--report` a line for each replacement and for each
/// word left alone that looks like a FIND cut short. Standard output keeps only the poem.
///
/// ```
/// snap-poem: report: Lenore.png: 2 replacements
///   line 1, column 1: 'Lenore' → 'Alex' (exact, OCR confidence 96%)
///   line 6, column 52: 'Lenorc' → 'Alex' (OCR-tolerant, OCR confidence 41%)
///   not replaced: line 9, column 20: 'Leno' looks like 'Lenore'
/// snap-poem: warning: 'Hope' not found; closest: 'Hape' on line 17
/// ```
struct PersonalizationReport {
    let poem: ScannedPoem
    /// The input's name as the user wrote it (`<stdin>` for standard input).
    let name: String
    /// Whether warnings name the input (when several were given).
    let namesInput: Bool

    /// Writes the report (when `listingChanges`) and the warnings.
    func write(to console: Console, listingChanges: Bool) {
        if listingChanges { console.writeError(lines.joined()) }
        for unmatched in poem.personalized.unmatched {
            console.writeError("snap-poem: warning: \(namesInput ? "\(name): " : "")\(unmatched.message)\n")
        }
    }

    /// The `--report` lines, each ending with a newline.
    var lines: [String] {
        let changes = poem.personalized.changes
        let count = changes.isEmpty ? "no replacements" : changes.count == 1 ? "1 replacement" : "\(changes.count) replacements"
        return ["snap-poem: report: \(name): \(count)\n"] + changes.map { "  \(Self.describe($0))\n" }
            + poem.personalized.nearMisses.map {
                "  not replaced: line \($0.line), column \($0.column): '\($0.word)' looks like '\($0.find)'\n"
            }
    }

    /// `line 6, column 52: 'Lenorc' → 'Alex' (OCR-tolerant, OCR confidence 41%)`.
    static func describe(_ change: TextChange) -> String {
        let kind: String
        switch change.kind {
        case .exact: kind = "exact"
        case .caseInsensitive: kind = "ignoring case"
        case .ocrTolerant: kind = "OCR-tolerant"
        }
        let confidence = change.confidence.map { "OCR confidence \(Int($0.rounded()))%" } ?? "OCR confidence unknown"
        return
            "line \(change.line), column \(change.column): '\(Self.escaped(change.original))' → '\(Self.escaped(change.replacement))' (\(kind), \(confidence))"
    }

    /// Line breaks shown as `\n`, so that each change stays on one line.
    private static func escaped(_ text: String) -> String {
        text.replacing("\r\n", with: "\\n").replacing("\n", with: "\\n")
    }
}
