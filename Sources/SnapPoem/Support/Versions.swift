import CTesseract
import Foundation

/// Versions of snap-poem and of the C libraries it runs on.
public enum Versions {
    /// snap-poem's own version: `SnapPoem.version`.
    public static var snapPoem: String { SnapPoem.version }

    /// Tesseract's version string (`TessVersion`), e.g. "5.3.0".
    public static var tesseract: String { String(cString: TessVersion()) }

    /// Leptonica's version (`getLeptonicaVersion`), e.g. "1.82.0".
    public static var leptonica: String {
        guard let text = getLeptonicaVersion() else { return "unknown" }
        defer { lept_free(text) }
        return String(cString: text).replacingOccurrences(of: "leptonica-", with: "")
    }
}
