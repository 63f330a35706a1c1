import Foundation

/// The result of reading every page of a file: one `ScannedPage` a page, in page order.
///
/// A multi-page TIFF (a scanner's booklet, a fax) gives one page a directory; any other
/// image, one page. A page that could not be read keeps its error and its number; the others
/// are read all the same. Made by `PoemScanner.scanDocument(fileAt:progress:)` and
/// `scanDocument(imageData:name:progress:)`.
public struct ScannedDocument: Sendable, Equatable {
    /// The input's name (its path, or `-` for standard input).
    public var source: String
    /// The format found from the file's bytes.
    public var format: ImageFormat
    /// Every page, in order (`pages[0]` is page 1).
    public var pages: [ScannedPage]

    /// Creates a document.
    public init(source: String, format: ImageFormat, pages: [ScannedPage]) {
        self.source = source
        self.format = format
        self.pages = pages
    }

    /// How many pages the file has.
    public var pageCount: Int { pages.count }

    /// The poems of the pages that were read, in page order.
    public var poems: [ScannedPoem] { pages.compactMap(\.poem) }

    /// The pages that could not be read, with their errors.
    public var failures: [(page: Int, error: SnapPoemError)] {
        pages.compactMap { page in page.error.map { (page.number, $0) } }
    }

    /// Whether every page was read.
    public var isComplete: Bool { pages.allSatisfy { $0.poem != nil } }

    /// What separates two pages' texts in `text`: a form feed on a line of its own, as a
    /// printer (and `less`, `pr`) takes it. The tesseract CLI ends every page, the last too,
    /// with a form feed; snap-poem puts one between pages only, on its own line, so that each
    /// page's lines stay whole for line-oriented tools.
    public static let pageSeparator = "\u{0C}\n"

    /// The personalised poems of the pages read, in page order, joined by `pageSeparator`.
    public var text: String { Self.joined(poems.map(\.text)) }

    /// The recognised poems before personalisation, joined as `text` is.
    public var recognizedText: String { Self.joined(poems.map(\.recognizedText)) }

    /// Texts joined by `pageSeparator`, each ending with a line break first.
    static func joined(_ texts: [String]) -> String {
        texts.map { $0.isEmpty || $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: pageSeparator)
    }

    /// The line in `text` (from 1) on which line 1 of each page read starts.
    var firstLines: [Int] {
        var line = 1
        return poems.map { poem in
            defer {
                let text = poem.text
                line += text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) } + (text.isEmpty || text.hasSuffix("\n") ? 0 : 1) + 1
            }
            return line
        }
    }
}

/// One page of a `ScannedDocument`: its number and what became of it.
public struct ScannedPage: Sendable, Equatable {
    /// The page's number in the file, from 1.
    public var number: Int
    /// The poem read from the page, or why it could not be read.
    public var result: Result<ScannedPoem, SnapPoemError>

    /// Creates a page.
    public init(number: Int, result: Result<ScannedPoem, SnapPoemError>) {
        self.number = number
        self.result = result
    }

    /// The poem, when the page was read.
    public var poem: ScannedPoem? {
        if case .success(let poem) = result { return poem }
        return nil
    }

    /// The error, when it was not.
    public var error: SnapPoemError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// How far reading a document has come: which page, and how far into it.
public struct DocumentProgress: Sendable, Equatable {
    /// The page being read, from 1.
    public var page: Int
    /// How many pages the document has.
    public var pageCount: Int
    /// Recognition progress on this page, 0–100.
    public var pagePercent: Int

    /// Creates a progress report.
    public init(page: Int, pageCount: Int, pagePercent: Int) {
        self.page = page
        self.pageCount = pageCount
        self.pagePercent = pagePercent
    }

    /// Progress over the whole document, 0–100: the pages done and the share of this one.
    public var percent: Int {
        guard pageCount > 0 else { return 100 }
        return min(100, ((page - 1) * 100 + min(max(pagePercent, 0), 100)) / pageCount)
    }
}
