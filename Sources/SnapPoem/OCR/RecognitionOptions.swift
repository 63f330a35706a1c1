import CTesseract

/// Tesseract's page segmentation modes, by name (the CLI also takes their numbers, 0–13).
public enum PageSegmentationMode: Int, Sendable, Codable, CaseIterable {
    /// 0: orientation and script detection only, no text.
    case osdOnly = 0
    /// 1: automatic page segmentation with orientation and script detection.
    case autoWithOSD = 1
    /// 2: automatic page segmentation, no OSD and no recognition.
    case autoOnly = 2
    /// 3: fully automatic page segmentation, without OSD (the default).
    case auto = 3
    /// 4: a single column of text of variable sizes.
    case singleColumn = 4
    /// 5: a single uniform block of vertically aligned text.
    case singleBlockVerticalText = 5
    /// 6: a single uniform block of text.
    case singleBlock = 6
    /// 7: a single text line.
    case singleLine = 7
    /// 8: a single word.
    case singleWord = 8
    /// 9: a single word in a circle.
    case circleWord = 9
    /// 10: a single character.
    case singleCharacter = 10
    /// 11: sparse text: as much text as possible, in no particular order.
    case sparseText = 11
    /// 12: sparse text with OSD.
    case sparseTextWithOSD = 12
    /// 13: a raw line, bypassing Tesseract-specific hacks.
    case rawLine = 13

    /// The kebab-case name used on the command line, e.g. `single-block`.
    public var name: String {
        switch self {
        case .osdOnly: "osd-only"
        case .autoWithOSD: "auto-osd"
        case .autoOnly: "auto-only"
        case .auto: "auto"
        case .singleColumn: "single-column"
        case .singleBlockVerticalText: "single-block-vertical"
        case .singleBlock: "single-block"
        case .singleLine: "single-line"
        case .singleWord: "single-word"
        case .circleWord: "circle-word"
        case .singleCharacter: "single-char"
        case .sparseText: "sparse-text"
        case .sparseTextWithOSD: "sparse-text-osd"
        case .rawLine: "raw-line"
        }
    }

    /// Parses a name (`single-block`) or a number (`6`).
    public init?(argument: String) {
        if let number = Int(argument), let mode = PageSegmentationMode(rawValue: number) {
            self = mode
        } else if let mode = Self.allCases.first(where: { $0.name == argument }) {
            self = mode
        } else {
            return nil
        }
    }

    var tesseractValue: TessPageSegMode { TessPageSegMode(UInt32(rawValue)) }
}

/// Which of Tesseract's recognisers to run.
public enum EngineMode: String, Sendable, Codable, CaseIterable {
    /// The LSTM neural network (the default; the only one in "fast" and "best" data).
    case lstm
    /// The legacy character classifier; needs traineddata that includes it. snap-poem turns
    /// off Tesseract's fixed-pitch test for the whole process (`textord_all_prop`), so type
    /// from a typewriter is cut into characters as proportional type.
    case legacy
    /// Both, combined.
    case combined

    var tesseractValue: TessOcrEngineMode {
        switch self {
        case .lstm: OEM_LSTM_ONLY
        case .legacy: OEM_TESSERACT_ONLY
        case .combined: OEM_TESSERACT_LSTM_COMBINED
        }
    }
}

/// What an engine is started with: fixed for its lifetime, because Tesseract loads models once.
public struct EngineConfiguration: Sendable, Equatable, Codable {
    /// The languages to load. Default `eng+fra`.
    public var languages: LanguageSet
    /// Where the traineddata is; nil resolves it in the documented order at start.
    public var tessdataDirectory: String?
    /// The recogniser. Default `.lstm`.
    public var engineMode: EngineMode
    /// Tesseract variables set at start (`-c name=value`); an unknown name is an error.
    public var variables: [String: String]

    /// Creates an engine configuration.
    public init(
        languages: LanguageSet = .englishAndFrench,
        tessdataDirectory: String? = nil,
        engineMode: EngineMode = .lstm,
        variables: [String: String] = [:]
    ) {
        self.languages = languages
        self.tessdataDirectory = tessdataDirectory
        self.engineMode = engineMode
        self.variables = variables
    }
}

/// What each recognition is asked to do.
public struct RecognitionOptions: Sendable, Equatable, Codable {
    /// How Tesseract finds the text on the page. Default `.auto` (3).
    public var pageSegmentation: PageSegmentationMode
    /// The resolution to assume, in dots per inch (`dotsPerInchRange`, 70–2400; a value
    /// outside it makes recognition throw `SnapPoemError.invalidOption`). Default 300;
    /// Tesseract uses it to judge sizes and stops warning that it must estimate it.
    public var dotsPerInch: Int
    /// The resolutions `dotsPerInch` may take.
    public static let dotsPerInchRange = 70...2400
    /// The longest the recognition may take, or nil for no limit. Bounds the whole call,
    /// layout analysis included (see `Recognizer.recognize`).
    public var timeLimit: Duration?
    /// Which of Tesseract's own renderings (hOCR, TSV, ALTO) to produce as well. Default none.
    public var renderings: Set<PageRenderingFormat>
    /// Only these characters may be recognised (`tessedit_char_whitelist`); nil for all.
    public var allowedCharacters: String?
    /// These characters are never recognised (`tessedit_char_blacklist`); nil for none.
    public var deniedCharacters: String?
    /// Keep runs of spaces between words as Tesseract measured them
    /// (`preserve_interword_spaces`) instead of one space.
    public var preserveInterwordSpaces: Bool
    /// Recognise only this rectangle of the image given to the recognizer; nil for the whole
    /// image. Clipped to the image; results keep the whole image's coordinates.
    public var regionOfInterest: BoundingBox?
    /// The most separate marks (8-connected dark shapes, after Otsu thresholding, as
    /// Tesseract's own thresholding sees them) the prepared page, or its region of interest,
    /// may hold; a page with more is refused with `SnapPoemError.tooManyMarks` before
    /// Tesseract sees it. Nil for no limit. Default `defaultMarkLimit`.
    public var markLimit: Int?
    /// The default `markLimit`: 10 000 marks.
    ///
    /// Tesseract's layout analysis cannot be interrupted, so a time limit cannot bound it; the
    /// number of marks can, and is counted in milliseconds. Measured on this project's 2-core
    /// machine (BENCHMARKS.md, "A bound on layout analysis"): the busiest of the 117 sample
    /// and benchmark images has 1 812 marks, and an A4 page of 10-point prose in two columns
    /// 7 872 (8-point prose in three columns, 10 889, is over the limit); the costliest page
    /// found, 5-pixel specks scattered at random and read at their own size, holds layout
    /// analysis for 8–12 s at 9 342 marks (as `dpi` varies from 70 to 2400) and 19–27 s at
    /// 17 381, where reading a whole honest page of 7-point prose in three columns (19 355
    /// marks) takes 6.5–11 s;
    /// `SampleImages/hostile-layout.png` (235 356 marks) holds it for 98 s.
    public static let defaultMarkLimit = 10_000

    /// Creates recognition options.
    public init(
        pageSegmentation: PageSegmentationMode = .auto,
        dotsPerInch: Int = 300,
        timeLimit: Duration? = nil,
        renderings: Set<PageRenderingFormat> = [],
        allowedCharacters: String? = nil,
        deniedCharacters: String? = nil,
        preserveInterwordSpaces: Bool = false,
        regionOfInterest: BoundingBox? = nil,
        markLimit: Int? = RecognitionOptions.defaultMarkLimit
    ) {
        self.pageSegmentation = pageSegmentation
        self.dotsPerInch = dotsPerInch
        self.timeLimit = timeLimit
        self.renderings = renderings
        self.allowedCharacters = allowedCharacters
        self.deniedCharacters = deniedCharacters
        self.preserveInterwordSpaces = preserveInterwordSpaces
        self.regionOfInterest = regionOfInterest
        self.markLimit = markLimit
    }
}

/// Tesseract's structured renderings of a page.
public enum PageRenderingFormat: String, Sendable, Codable, CaseIterable {
    /// hOCR: the `<div class='ocr_page'>` fragment (`TessBaseAPIGetHOCRText`), no `<html>` around it.
    case hocr
    /// TSV: one row per layout element, with a header row added by snap-poem (`TessBaseAPIGetTsvText`).
    case tsv
    /// ALTO XML: the `<Page>` fragment (`TessBaseAPIGetAltoText`), no `<alto>` document around it.
    case alto
}
