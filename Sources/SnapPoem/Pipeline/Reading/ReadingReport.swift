import Foundation

/// What reading a page line by line did: the engines, the language chosen, the lines read
/// again in the other language. Reported in `ScannedPoem.reading` and the JSON export.
public struct ReadingReport: Sendable, Equatable, Codable {
    /// How many engines read the page's lines at once.
    public var engines: Int
    /// The text lines layout analysis found.
    public var lineCount: Int
    /// The language the poem was judged to be in, or nil when no choice was made (the
    /// choice is off, or the languages are not English and French).
    public var language: PoemLanguage?
    /// How many lines were read by the French model alone.
    public var frenchLines: Int
    /// How many lines were read again because they were in the other language than the poem.
    public var lineLanguageRereads: Int
    /// Time spent in layout analysis, in milliseconds.
    public var layoutMilliseconds: Int
    /// How many times smaller than the recognised image the copy was that layout analysis
    /// found the lines in (an enlarged page's lines are found at about the scale it was
    /// photographed at); nil when it read the recognised image itself.
    public var layoutReduction: Double? = nil
    /// How many lines holding a doubtful word were read better from an enlarged copy.
    public var enlargedRereads: Int = 0
    /// Why the reading stopped before the end of the page, when it was allowed to: the
    /// layout's lines run vertically (a page turned 90° or 270°), or the first lines read
    /// as garbage (a page upside down). The scanner then asks orientation detection at once
    /// instead of reading the whole page first. Nil when the page was read to the end.
    public var stoppedEarly: EarlyStop? = nil
    /// How many lines in large type (headings, `PageReading.largeLines`) read from copies of
    /// their own, after the others, were kept: read better than with the page, or read at
    /// all where the page's reading leaves them out (taller than a quarter of the page).
    public var largeLines: Int = 0
    /// For a reading stopped at `EarlyStop.verticalLines`: the quarter turn (clockwise, 90
    /// or 270) that the lines' starts suggest (`PageReading.turnFromLineStarts`), which the
    /// scanner tries before orientation detection; nil when the lines do not say.
    public var lineStartTurn: Int? = nil
    /// The passes the reading ran, in order, each with what it read and kept and its time
    /// (`PageReading.passes`); empty for a reading stopped before its passes.
    public var passes: [ReadingPassReport] = []

    /// Why a reading stopped early.
    public enum EarlyStop: String, Sendable, Codable {
        /// Most lines found by layout analysis are taller than wide.
        case verticalLines = "vertical-lines"
        /// The first lines read with a mean word confidence under the scanner's doubt threshold.
        case doubtfulStart = "doubtful-start"
    }

    /// Creates a report.
    public init(
        engines: Int, lineCount: Int, language: PoemLanguage?, frenchLines: Int, lineLanguageRereads: Int, layoutMilliseconds: Int
    ) {
        self.engines = engines
        self.lineCount = lineCount
        self.language = language
        self.frenchLines = frenchLines
        self.lineLanguageRereads = lineLanguageRereads
        self.layoutMilliseconds = layoutMilliseconds
    }

    /// Decodes a report, written by this version or an older one: the counts added later
    /// (`enlargedRereads`, `largeLines`) read as 0 when absent, `layoutReduction`,
    /// `stoppedEarly` and `lineStartTurn` as nil, `passes` as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        engines = try container.decode(Int.self, forKey: .engines)
        lineCount = try container.decode(Int.self, forKey: .lineCount)
        language = try container.decodeIfPresent(PoemLanguage.self, forKey: .language)
        frenchLines = try container.decode(Int.self, forKey: .frenchLines)
        lineLanguageRereads = try container.decode(Int.self, forKey: .lineLanguageRereads)
        layoutMilliseconds = try container.decode(Int.self, forKey: .layoutMilliseconds)
        layoutReduction = try container.decodeIfPresent(Double.self, forKey: .layoutReduction)
        enlargedRereads = try container.decodeIfPresent(Int.self, forKey: .enlargedRereads) ?? 0
        stoppedEarly = try container.decodeIfPresent(EarlyStop.self, forKey: .stoppedEarly)
        largeLines = try container.decodeIfPresent(Int.self, forKey: .largeLines) ?? 0
        lineStartTurn = try container.decodeIfPresent(Int.self, forKey: .lineStartTurn)
        passes = try container.decodeIfPresent([ReadingPassReport].self, forKey: .passes) ?? []
    }
}

/// What one pass of a page's reading did (`ReadingReport.passes`): which lines it read, how
/// many of its readings it kept, and how long it took.
public struct ReadingPassReport: Sendable, Equatable, Codable {
    /// The pass's name ("french-model", "enlarged-doubtful-lines"…; `ReadingPass.name`).
    public var name: String
    /// How many lines it read (0 when it found nothing to do).
    public var linesRead: Int
    /// How many of its readings it kept in place of the ones before.
    public var linesKept: Int
    /// Its time, in milliseconds.
    public var milliseconds: Int

    /// Creates a pass report.
    public init(name: String, linesRead: Int, linesKept: Int, milliseconds: Int) {
        self.name = name
        self.linesRead = linesRead
        self.linesKept = linesKept
        self.milliseconds = milliseconds
    }
}
