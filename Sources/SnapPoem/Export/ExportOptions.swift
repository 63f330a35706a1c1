/// The settings of every exporter in one value, for choosing the format at run time
/// (`ExportFormat.exporter(options:)`). Each exporter can also be created on its own.
public struct ExportOptions: Sendable, Equatable {
    /// The poem's language as a BCP 47 tag (`en`, `fr`), for HTML's and hOCR's `lang`.
    /// Default `en`; `LanguageTag.forTesseract(_:)` derives it from a language set.
    public var languageTag: String
    /// The e-mail draft's headers; required for `.eml` (it has no clock of its own).
    public var email: EmailDraftOptions?
    /// How JSON is laid out. Default `.pretty`.
    public var jsonLayout: JSONExporter.Layout
    /// Whether hOCR, TSV and ALTO carry the personalised words (default) or Tesseract's words
    /// exactly as recognised.
    public var personalizesLayoutWords: Bool
    /// Whether `.html` is the side-by-side page (`SideBySideHTMLExporter`: the annotated
    /// photo beside the poem) rather than the love note alone. The scan must have kept its
    /// upright image (`ScanConfiguration.keepsUprightImage`). Default false.
    public var htmlSideBySide = false

    /// Creates export settings.
    public init(
        languageTag: String = "en",
        email: EmailDraftOptions? = nil,
        jsonLayout: JSONExporter.Layout = .pretty,
        personalizesLayoutWords: Bool = true
    ) {
        self.languageTag = languageTag
        self.email = email
        self.jsonLayout = jsonLayout
        self.personalizesLayoutWords = personalizesLayoutWords
    }
}
