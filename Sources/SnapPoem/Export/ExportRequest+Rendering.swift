import Foundation

/// A poem made into what an `ExportRequest` asks for: the document's bytes, the images made
/// beside it, and everything a person should be told about it.
public struct RenderedPoem: Sendable, Equatable {
    /// The document (or `mailto:` URL); nil when it could not be made, and then an error
    /// among `diagnostics` says why.
    public var document: Data?
    /// The images asked for (`ExportRequest.images`), as PNG.
    public var images: [ExportRequest.Image: Data]
    /// In the order a person should read them: the image's own warnings, the coverage
    /// check's, the replacements, then the document's.
    public var diagnostics: [Diagnostic]

    /// Creates a rendered poem.
    public init(document: Data?, images: [ExportRequest.Image: Data] = [:], diagnostics: [Diagnostic] = []) {
        self.document = document
        self.images = images
        self.diagnostics = diagnostics
    }
}

extension ExportRequest {
    /// The longest `mailto:` URL that browsers and mail clients are known to pass on whole;
    /// a longer one gets a warning.
    public static let longestSafeURL = 2000

    /// Makes `poem` into what this request asks for. Pure: the same poem, request and
    /// stamp give the same result; nothing is read or written.
    ///
    /// The diagnostics, each naming the poem (`<stdin>` for standard input): the image's
    /// warnings and preprocessing notes (a multi-page TIFF); no text found; the coverage
    /// check's findings (`PoemDiagnostics.coverage(of:name:format:)`); the replacements
    /// (`PoemDiagnostics.personalization(of:name:listingChanges:namingPoem:)`); a `mailto:`
    /// URL too long for some programs; and the time limit when it cut the text short
    /// (category `.timeLimit`). An image or document that cannot be made is an error of
    /// category `.output`, and nothing after it is made.
    ///
    /// - Parameters:
    ///   - poem: the scanned and personalised poem.
    ///   - stamp: the Date and Message-ID of an e-mail draft.
    public func render(_ poem: ScannedPoem, stamp: DraftStamp) -> RenderedPoem {
        let name = poem.source == "-" ? "<stdin>" : poem.source
        var rendered = RenderedPoem(
            document: nil,
            diagnostics: (poem.imageFacts.warnings + poem.preprocessingReport.notes).map { Diagnostic(.warning, $0, subject: name) })
        do throws(SnapPoemError) {
            if images.contains(.preprocessed), let image = poem.preprocessedImage {
                rendered.images[.preprocessed] = try image.pngData()
            }
            if images.contains(.annotated) {
                rendered.images[.annotated] = try poem.annotated().pngData()
            }
        } catch {
            rendered.images = [:]
            rendered.diagnostics.append(Diagnostic(error.naming(name), category: .output))
            return rendered
        }
        if !poem.page.hasText && !poem.page.timedOut {
            rendered.diagnostics.append(Diagnostic(.warning, "no text was found in the image", subject: name))
        }
        rendered.diagnostics += PoemDiagnostics.coverage(of: poem, name: name, format: format)
        rendered.diagnostics += PoemDiagnostics.personalization(
            of: poem, name: name, listingChanges: listsChanges, namingPoem: namesPoemInReplacementWarnings)
        if mailtoLink {
            let url = MailtoLink.url(for: poem, to: to, subject: subject)
            if url.utf8.count > Self.longestSafeURL {
                rendered.diagnostics.append(
                    Diagnostic(
                        .warning,
                        "the mailto: URL is \(url.utf8.count) characters long; some programs cut URLs beyond about "
                            + "\(Self.longestSafeURL), so an e-mail draft (eml) is the safer way to send a long poem", subject: name))
            }
            rendered.document = Data((url + "\n").utf8)
        } else {
            do throws(SnapPoemError) {
                rendered.document = try poem.exported(as: format, options: exportOptions(stamp: stamp))
            } catch {
                rendered.diagnostics.append(Diagnostic(error, category: .output))
                return rendered
            }
        }
        if poem.page.timedOut {
            let limit = poem.timeLimit.map(\.secondsText) ?? "?"
            rendered.diagnostics.append(
                Diagnostic(.warning, "time limit of \(limit) s reached; the text is partial", subject: name, category: .timeLimit))
        }
        return rendered
    }
}

extension Diagnostic {
    /// The error as a diagnostic in `category`, whatever its own.
    init(_ error: SnapPoemError, category: Category) {
        self.init(.error, error.description, category: category)
    }
}
