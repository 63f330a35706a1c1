/// What to make of each poem once it is read, for every front end alike: the command line,
/// a batch's workers (which receive it in their first message) and the HTTP service.
///
/// A request is bound from text by one set of rules (`apply(_:)`, each front end spelling
/// the options its own way), ties itself to the scan that feeds it (`prepare(_:)`: the
/// Tesseract rendering a layout format needs, the images kept for drawing), and turns a
/// poem into bytes and diagnostics with the pure `render(_:stamp:)`.
public struct ExportRequest: Sendable, Equatable, Codable {
    /// An image made beside the document, from the same scan.
    public enum Image: String, Sendable, Codable, CaseIterable {
        /// Exactly what Tesseract saw, as PNG (`--save-preprocessed`).
        case preprocessed
        /// The upright photo with what was read drawn on it, as PNG (`--annotate`).
        case annotated
    }

    /// The document's format. Default text.
    public var format: ExportFormat = .text
    /// A `mailto:` URL (and a newline) instead of the document (`--mailto`).
    public var mailtoLink = false
    /// The recipients of an e-mail draft or a `mailto:` URL.
    public var to: [EmailAddress] = []
    /// The subject of an e-mail draft or a `mailto:` URL; nil uses the poem's title.
    public var subject: String?
    /// With `.html`: the annotated photo beside the poem (`SideBySideHTMLExporter`).
    public var sideBySide = false
    /// How JSON is laid out: `.jsonLines` when several poems share one stream or file.
    public var jsonLayout: JSONExporter.Layout = .pretty
    /// The poem's language for HTML and hOCR; `prepare(_:)` takes it from the scan.
    public var languageTag = "en"
    /// Whether the diagnostics list each replacement (`--report`).
    public var listsChanges = false
    /// Whether the warnings about FINDs not found name the poem: when it is one of several.
    public var namesPoemInReplacementWarnings = false
    /// The images to make beside the document.
    public var images: Set<Image> = []
    /// For a file of several pages: the page the images and the side-by-side page show
    /// (`--annotate-page`); nil shows page 1 and says so.
    public var imagesPage: Int?

    /// Creates a request for `format`, every other setting at its default.
    public init(format: ExportFormat = .text) {
        self.format = format
    }

    /// Ties the request to the scan that will feed it, before anything is read: the scan
    /// records what the request needs (Tesseract's rendering for hOCR, TSV and ALTO, the
    /// upright image for the side-by-side page and `--annotate`, the preprocessed image for
    /// `--save-preprocessed`), and the request takes the poem's language tag from the scan's
    /// languages.
    public mutating func prepare(_ scan: inout ScanConfiguration) {
        if let rendering = format.requiredRendering, !mailtoLink {
            scan.recognition.renderings.insert(rendering)
        }
        if sideBySide || images.contains(.annotated) { scan.keepsUprightImage = true }
        if images.contains(.preprocessed) { scan.keepsPreprocessedImage = true }
        languageTag = LanguageTag.forTesseract(scan.engine.languages)
    }

    /// The settings of the exporters for one poem, stamped for an e-mail draft.
    public func exportOptions(stamp: DraftStamp) -> ExportOptions {
        var options = ExportOptions(languageTag: languageTag, jsonLayout: jsonLayout)
        options.htmlSideBySide = sideBySide
        if format == .eml { options.email = EmailDraftOptions(to: to, subject: subject, stamp: stamp) }
        return options
    }
}

/// A setting of an `ExportRequest` that a front end receives as text: the command line's
/// `--to a@b.org`, the service's `to=a@b.org`. The raw value is the command line's long
/// name. The format is here for the service; the command line reads its own `--format`
/// (which also takes `jsonl` and follows `--output`'s extension) and sets it directly.
public enum ExportOption: String, Sendable, CaseIterable {
    /// An `ExportFormat` name.
    case format
    /// E-mail recipients, comma-separated.
    case to
    /// The e-mail subject.
    case subject
    /// The side-by-side HTML page (a switch: present or absent).
    case sideBySide = "side-by-side"
}

/// Why text values could not be applied to an `ExportRequest`; each front end words it in
/// its own spelling of the option.
public enum ExportOptionError: Error, Sendable, Equatable {
    /// `value` is not what `option` takes; `expected` lists what it takes.
    case invalidValue(option: ExportOption, value: String, expected: String)
    /// The library refused the value with its own one-line reason (an address, a subject).
    case rejected(option: ExportOption, error: SnapPoemError)
    /// `option` does not apply to the request as it is: `to` and `subject` need an e-mail
    /// draft or a `mailto:` URL, `side-by-side` the HTML page.
    case notApplicable(option: ExportOption)
}

extension ExportRequest {
    /// Applies settings given as text, checking each and how they combine, in this order:
    /// the format; whether `to` and `subject` apply (to `.eml` and `mailtoLink`); whether
    /// `side-by-side` applies (to `.html`, not a `mailto:` URL); then the addresses and the
    /// subject themselves. Options absent from `values` keep their current setting.
    ///
    /// - Parameter values: each option's value (an empty string for `side-by-side`).
    /// - Throws: `ExportOptionError` for the first value or combination that is refused.
    public mutating func apply(_ values: [ExportOption: String]) throws(ExportOptionError) {
        if let text = values[.format] {
            guard let format = ExportFormat(rawValue: text.lowercased()) else {
                let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(option: .format, value: text, expected: "one of \(names)")
            }
            self.format = format
        }
        let takesEmailHeaders = mailtoLink || format == .eml
        for option in [ExportOption.to, .subject] where values[option] != nil && !takesEmailHeaders {
            throw .notApplicable(option: option)
        }
        if values[.sideBySide] != nil {
            guard format == .html, !mailtoLink else { throw .notApplicable(option: .sideBySide) }
            sideBySide = true
        }
        if let text = values[.to] {
            do throws(SnapPoemError) {
                to = try EmailAddress.list(parsing: text)
            } catch {
                throw .rejected(option: .to, error: error)
            }
        }
        if let text = values[.subject] {
            do throws(SnapPoemError) {
                try EmailDraftOptions.validate(subject: text)
            } catch {
                throw .rejected(option: .subject, error: error)
            }
            subject = text
        }
    }
}
