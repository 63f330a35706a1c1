/// How much of the text-like ink in the image Tesseract saw is covered by the words it
/// returned, before and after the regions it skipped were read again (see `CoverageCheck`).
///
/// Tesseract's page layout analysis can drop whole lines without a trace: no block covers
/// them and the mean confidence stays high. This record is how a scan says so. When
/// `isComplete` is false, text is still unread: `unreadRegions` says where, in the pixels of
/// the image Tesseract saw (`ScannedPoem.recognizedWidth` × `recognizedHeight`).
public struct TextCoverage: Sendable, Equatable, Codable {
    /// How many letter-sized shapes standing in rows of text (see `TextInk`) the image holds.
    /// 0 for a page without text-like ink (blank paper, a drawing).
    public var textShapeCount: Int
    /// The share of those shapes, 0–1, that lie inside a word of Tesseract's first reading;
    /// 1 when there are none.
    public var coveredBeforeReread: Double
    /// The same share after the skipped regions were read again; equal to
    /// `coveredBeforeReread` when nothing was read again.
    public var coveredAfterReread: Double
    /// The regions of uncovered text-like ink that were read again, in reading order.
    public var rereadRegions: [RereadRegion]
    /// Regions of text-like ink that no recognised word covers, even after the re-read: text
    /// the result is missing, for a person to look at. Empty when the text is complete.
    public var unreadRegions: [BoundingBox]
    /// True when the time limit left no time to read every skipped region again.
    public var rereadCutShort: Bool

    /// Whether every row of text-like ink is covered by recognised words (after the re-read).
    public var isComplete: Bool { unreadRegions.isEmpty }

    /// How many lines of text the re-read added to the page.
    public var recoveredLineCount: Int { rereadRegions.reduce(0) { $0 + $1.lineCount } }

    /// Creates a record of a coverage check.
    public init(
        textShapeCount: Int, coveredBeforeReread: Double, coveredAfterReread: Double,
        rereadRegions: [RereadRegion] = [], unreadRegions: [BoundingBox] = [], rereadCutShort: Bool = false
    ) {
        self.textShapeCount = textShapeCount
        self.coveredBeforeReread = coveredBeforeReread
        self.coveredAfterReread = coveredAfterReread
        self.rereadRegions = rereadRegions
        self.unreadRegions = unreadRegions
        self.rereadCutShort = rereadCutShort
    }
}

/// One region that the coverage check read again.
public struct RereadRegion: Sendable, Equatable, Codable {
    /// Where the region is, in the pixels of the image Tesseract saw.
    public var box: BoundingBox
    /// How many lines the re-read added to the page (lines merged into a line Tesseract had
    /// found in part count too); 0 when it gave nothing trustworthy.
    public var lineCount: Int
    /// How many words it added.
    public var wordCount: Int

    /// Creates a record of one re-read region.
    public init(box: BoundingBox, lineCount: Int, wordCount: Int) {
        self.box = box
        self.lineCount = lineCount
        self.wordCount = wordCount
    }
}
