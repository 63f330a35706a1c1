import Foundation
import SnapPoem

/// The warnings the text coverage check gives on standard error: that Tesseract skipped
/// lines and they were read again, and that text is still unread. One line each, naming the
/// image, without the `snap-poem: warning: ` prefix.
enum CoverageWarning {
    /// The warnings for `poem`, whose image is called `name`; none when every row of text
    /// was read at once (or the check did not run).
    ///
    /// - Parameter format: the export format; Tesseract's own layout formats (hOCR, TSV,
    ///   ALTO) hold its first reading only, so for them a re-read adds a warning that the
    ///   lines read again are missing from the file.
    static func lines(for poem: ScannedPoem, name: String, format: ExportFormat = .text) -> [String] {
        guard let coverage = poem.coverage else { return [] }
        var lines: [String] = []
        let recovered = coverage.recoveredLineCount
        if recovered > 0 {
            lines.append(
                "\(name): Tesseract's layout analysis skipped \(count(recovered, "line")) of text; "
                    + "\(recovered == 1 ? "it was" : "they were") read again on \(recovered == 1 ? "its" : "their") own and put back in place "
                    + "(text covered: \(percent(coverage.coveredBeforeReread)) → \(percent(coverage.coveredAfterReread)))")
            if format.requiredRendering != nil {
                lines.append(
                    "\(name): the \(format.rawValue) output is Tesseract's own first reading and lacks the \(count(recovered, "line")) "
                        + "read again; the text, markdown, html, eml and json formats have them")
            }
        }
        if !coverage.isComplete {
            let regions = coverage.unreadRegions.count
            let cause = coverage.rereadCutShort ? " before the time limit" : ""
            lines.append(
                "\(name): \(count(regions, "region")) of text could not be read\(cause) "
                    + "(\(percent(coverage.coveredAfterReread)) of the text is covered); the poem may be missing lines: compare it with "
                    + "the image (--format json lists the regions under coverage.unreadRegions)")
        }
        return lines
    }

    /// `1 line`, `5 lines`.
    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    /// A share as a whole percentage, never rounded up to 100 while something is missing.
    static func percent(_ share: Double) -> String {
        let whole = (share * 100).rounded(.down)
        return "\(Int(share >= 1 ? 100 : min(whole, 99))) %"
    }
}
