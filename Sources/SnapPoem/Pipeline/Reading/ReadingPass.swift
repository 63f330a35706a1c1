import Foundation

/// One pass of a page's reading (`PageReading.passes`): it chooses lines of the page, chooses
/// the engine and the scale to read them with, reads them, and keeps the surer reading.
/// Each pass is a type of its own, with its own tests and its own line in the report
/// (`ReadingPassReport`); a new pass is added to the list without touching the others.
protocol ReadingPass: Sendable {
    /// The pass's name in the report ("french-model").
    var name: String { get }

    /// Runs the pass on `state`, the page's reading so far.
    ///
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    func run(_ state: inout ReadingState, in context: ReadingContext) async throws(SnapPoemError) -> ReadingPassOutcome
}

/// What a pass did: how many lines it read, and how many of those readings it kept.
struct ReadingPassOutcome: Sendable, Equatable {
    /// How many lines the pass read.
    var linesRead = 0
    /// How many of its readings replaced the ones before (or filled a line that had none).
    var linesKept = 0

    /// A pass that found nothing to do.
    static let nothing = ReadingPassOutcome()
}

/// What every pass of one page's reading reads with and for.
struct ReadingContext: Sendable {
    /// The prepared page.
    let image: PoemImage
    /// The scanner's engines (`ReadingEngines`): the French ones are loaded when asked for.
    let engines: ReadingEngines
    /// The engines reading with the configured languages (one or two).
    let workers: [Recognizer]
    /// Tesseract's options for the page.
    let options: RecognitionOptions
    /// When the reading must end.
    let deadline: ContinuousClock.Instant?
    /// The image's name in errors.
    let name: String
    /// Recognition progress, 0–100.
    let progress: (@Sendable (Int) -> Void)?
    /// Whether the poem's language may choose the model.
    let choosesLanguage: Bool
    /// When set, the reading stops after its first lines if they read with a mean word
    /// confidence under it (`ReadingReport.EarlyStop.doubtfulStart`).
    let doubtfulConfidence: Int?
}

/// A page's reading as it goes from pass to pass: its lines, their readings, and what is
/// known of them.
struct ReadingState: Sendable {
    /// Every line layout analysis found, in reading order.
    let found: [LayoutLine]
    /// The positions in `found` of the lines read with the page: not taller than a quarter of
    /// the page (`PageReading.isTall`), not tall and narrow (`PageReading.isNarrow`).
    let reading: [Int]
    /// Those lines.
    let layout: [LayoutLine]
    /// Their boxes.
    let boxes: [BoundingBox]
    /// The lines of `found` in large type (`PageReading.largeLines`), read by `LargeTypePass`.
    let large: Set<Int>
    /// How many of the first lines decide the poem's language: at least
    /// `PageReading.leadingShare` of the line area, and 3 lines.
    let leading: Int
    /// The reading of each line of `layout` so far.
    var lines: [RecognizedLine?]
    /// The lines of `layout` whose reading is the French model's alone.
    var inFrench: Set<Int> = []
    /// The French engines, once the poem was judged French and they loaded.
    var french: [Recognizer] = []
    /// The readings of lines of `found` in large type kept by `LargeTypePass`, by position.
    var largeReadings: [Int: RecognizedLine] = [:]
    /// Whether the time limit ended a pass; the passes after it do not read.
    var timedOut = false
    /// The report so far.
    var report = ReadingReport(engines: 1, lineCount: 0, language: nil, frenchLines: 0, lineLanguageRereads: 0, layoutMilliseconds: 0)
    /// The prepared page (for `page()`).
    private let image: PoemImage

    /// The state before any pass, for the lines `found` on `image`.
    init(found: [LayoutLine], image: PoemImage) {
        self.found = found
        self.image = image
        large = PageReading.largeLines(of: found, pageHeight: image.height)
        reading = found.indices.filter { !PageReading.isTall(found[$0].box, in: image) && !PageReading.isNarrow(found[$0].box) }
        layout = reading.map { found[$0] }
        boxes = layout.map(\.box)
        lines = Array(repeating: nil, count: layout.count)
        let area = boxes.map { Double($0.width * $0.height) }
        let total = area.reduce(0, +)
        var leading = 0, covered = 0.0
        while leading < boxes.count, leading < 3 || covered < PageReading.leadingShare * total {
            covered += area[leading]
            leading += 1
        }
        self.leading = leading
    }

    /// The page from the readings: each line of `found` put where layout analysis found it,
    /// in large type as `LargeTypePass` kept it.
    func page() -> RecognizedPage {
        var inOrder = [RecognizedLine?](repeating: nil, count: found.count)
        for (position, index) in reading.enumerated() where position < lines.count { inOrder[index] = lines[position] }
        for (index, line) in largeReadings { inOrder[index] = line }
        let kept = found.indices.filter { inOrder[$0] != nil }
        return PageReading.page(of: kept.map { found[$0] }, lines: kept.map { inOrder[$0] }, image: image, timedOut: timedOut)
    }
}
