/// What a person is told about one scanned poem, as `Diagnostic` values: the coverage
/// check's findings, what personalisation did. `ExportRequest.render(_:stamp:)` gathers
/// them with the rest; each is also usable alone.
public enum PoemDiagnostics {
    /// The coverage check's warnings: that Tesseract skipped lines and they were read again,
    /// and that text is still unread. None when every row of text was read at once, or the
    /// check did not run.
    ///
    /// - Parameters:
    ///   - poem: the scanned poem.
    ///   - name: how the image is named (the warnings' subject).
    ///   - format: the export format; Tesseract's own layout formats (hOCR, TSV, ALTO) hold
    ///     its first reading only, so for them a re-read adds a warning that the lines read
    ///     again are missing from the file.
    public static func coverage(of poem: ScannedPoem, name: String, format: ExportFormat = .text) -> [Diagnostic] {
        guard let coverage = poem.coverage else { return [] }
        var messages: [String] = []
        let recovered = coverage.recoveredLineCount
        if recovered > 0 {
            messages.append(
                "Tesseract's layout analysis skipped \(count(recovered, "line")) of text; "
                    + "\(recovered == 1 ? "it was" : "they were") read again on \(recovered == 1 ? "its" : "their") own and put back in place "
                    + "(text covered: \(percent(coverage.coveredBeforeReread)) → \(percent(coverage.coveredAfterReread)))")
            if format.requiredRendering != nil {
                messages.append(
                    "the \(format.rawValue) output is Tesseract's own first reading and lacks the \(count(recovered, "line")) "
                        + "read again; the text, markdown, html, eml and json formats have them")
            }
        }
        if !coverage.isComplete {
            let regions = coverage.unreadRegions.count
            let cause = coverage.rereadCutShort ? " before the time limit" : ""
            messages.append(
                "\(count(regions, "region")) of text could not be read\(cause) "
                    + "(\(percent(coverage.coveredAfterReread)) of the text is covered); the poem may be missing lines: compare it with "
                    + "the image (the JSON export lists the regions under coverage.unreadRegions)")
        }
        return messages.map { Diagnostic(.warning, $0, subject: name) }
    }

    /// What personalisation did: with `listingChanges` a `.report` diagnostic listing each
    /// replacement and each word left alone that looks like a FIND cut short (`--report`),
    /// then a warning for each FIND that matched nothing, naming the poem when `namingPoem`.
    ///
    /// ```
    /// snap-poem: report: Lenore.png: 2 replacements
    ///   line 1, column 1: 'Lenore' → 'Alex' (exact, OCR confidence 96%)
    ///   line 6, column 52: 'Lenorc' → 'Alex' (OCR-tolerant, OCR confidence 41%)
    ///   not replaced: line 9, column 20: 'Leno' looks like 'Lenore'
    /// snap-poem: warning: 'Hope' not found; closest: 'Hape' on line 17
    /// ```
    public static func personalization(of poem: ScannedPoem, name: String, listingChanges: Bool, namingPoem: Bool) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if listingChanges {
            let changes = poem.personalized.changes
            let count = changes.isEmpty ? "no replacements" : changes.count == 1 ? "1 replacement" : "\(changes.count) replacements"
            let notes =
                changes.map(describe)
                + poem.personalized.nearMisses.map {
                    "not replaced: line \($0.line), column \($0.column): '\($0.word)' looks like '\($0.find)'"
                }
            diagnostics.append(Diagnostic(.report, count, subject: name, notes: notes))
        }
        for unmatched in poem.personalized.unmatched {
            diagnostics.append(Diagnostic(.warning, unmatched.message, subject: namingPoem ? name : nil))
        }
        return diagnostics
    }

    /// `line 6, column 52: 'Lenorc' → 'Alex' (OCR-tolerant, OCR confidence 41%)`, line
    /// breaks inside the words shown as `\n`.
    public static func describe(_ change: TextChange) -> String {
        let kind: String
        switch change.kind {
        case .exact: kind = "exact"
        case .caseInsensitive: kind = "ignoring case"
        case .ocrTolerant: kind = "OCR-tolerant"
        }
        let confidence = change.confidence.map { "OCR confidence \(Int($0.rounded()))%" } ?? "OCR confidence unknown"
        func shown(_ text: String) -> String { text.replacing("\r\n", with: "\\n").replacing("\n", with: "\\n") }
        return
            "line \(change.line), column \(change.column): '\(shown(change.original))' → '\(shown(change.replacement))' (\(kind), \(confidence))"
    }

    /// A share as a whole percentage, never rounded up to 100 while something is missing.
    public static func percent(_ share: Double) -> String {
        let whole = (share * 100).rounded(.down)
        return "\(Int(share >= 1 ? 100 : min(whole, 99))) %"
    }

    /// `1 line`, `5 lines`.
    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
