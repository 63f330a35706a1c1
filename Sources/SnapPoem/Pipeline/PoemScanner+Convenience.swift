import Foundation

/// The common case in one line: read a photographed poem and make it someone else's.
extension PoemScanner {
    /// Starts a scanner that replaces names, with every other setting at its default.
    ///
    /// ```swift
    /// let scanner = try await PoemScanner(replacing: ["Lenore": "Alex"])
    /// ```
    ///
    /// - Parameters:
    ///   - replacements: the FIND/REPLACE pairs, for example a literal `["Lenore": "Alex"]`;
    ///     matched as `MatchingOptions()` says (whole words, case-sensitive, OCR-tolerant).
    ///   - languages: the languages to read; English and French by default.
    /// - Throws: `SnapPoemError` when the tessdata or a language is missing, or Tesseract
    ///   cannot start.
    public convenience init(
        replacing replacements: ReplacementSet,
        languages: LanguageSet = .englishAndFrench
    ) async throws(SnapPoemError) {
        var configuration = ScanConfiguration(replacements: replacements)
        configuration.engine.languages = languages
        try await self.init(configuration: configuration)
    }

    /// Reads one image file and personalises it, in one call.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "Lenore.png")
    /// let poem = try await PoemScanner.scan(fileAt: url, replacing: ["Lenore": "Alex"])
    /// ```
    ///
    /// Each call starts an engine and frees it afterwards (about 0.25 s of model loading);
    /// to read several images, create one `PoemScanner` and call `scan(fileAt:progress:)` on
    /// it for each, or use `BatchScanner`.
    ///
    /// - Parameters:
    ///   - url: a file URL of the image.
    ///   - replacements: the FIND/REPLACE pairs; none by default, to read the poem as it is.
    ///   - languages: the languages to read; English and French by default.
    /// - Returns: the recognised and personalised poem.
    /// - Throws: `SnapPoemError` as for `init(configuration:)` and `scan(fileAt:progress:)`.
    public static func scan(
        fileAt url: URL,
        replacing replacements: ReplacementSet = ReplacementSet(),
        languages: LanguageSet = .englishAndFrench
    ) async throws(SnapPoemError) -> ScannedPoem {
        try await PoemScanner(replacing: replacements, languages: languages).scan(fileAt: url)
    }
}
