/// Everything a scan is asked to do, stage by stage.
///
/// `Codable`, so that a batch's supervisor hands it to its worker processes as it is
/// (`WorkerConfiguration`) instead of their parsing the command line again. The coding is
/// synthesized, here and in every stage's settings: a new setting needs only to be
/// `Codable` itself, and travels to the workers with nothing else to change.
public struct ScanConfiguration: Sendable, Equatable, Codable {
    /// Checked against the image header before decoding.
    public var imageLimits: ImageLimits
    /// The image stage.
    public var preprocessing: PreprocessingOptions
    /// The engine's start-up settings (languages, tessdata, variables).
    public var engine: EngineConfiguration
    /// Per-image recognition settings (page segmentation, resolution, time limit). A
    /// `regionOfInterest` here is in the decoded image's pixels; the scanner maps it onto the
    /// preprocessed image.
    public var recognition: RecognitionOptions
    /// The personalisation stage.
    public var replacements: ReplacementSet
    /// The OCR repairs made to the recognised text before replacements run (`--no-cleanup`
    /// sets `OCRTextCleanup.layoutOnly`).
    public var cleanup: OCRTextCleanup = .standard
    /// Keep the preprocessed image (exactly what Tesseract saw) in `ScannedPoem`, e.g. to
    /// save it. Off by default: it holds the image's memory for as long as the result lives.
    public var keepsPreprocessedImage = false
    /// Keep the upright decoded image (EXIF orientation applied, at its own size) in
    /// `ScannedPoem.uprightImage`, to draw what was read on it (`ScannedPoem.annotated`, the
    /// HTML export's side-by-side view). Off by default: it holds the image's memory for as
    /// long as the result lives.
    public var keepsUprightImage = false
    /// After recognition, compare the text-like ink of the image with the words Tesseract
    /// returned and read skipped lines again (`CoverageCheck`); the result is in
    /// `ScannedPoem.coverage`. On by default; it applies to the page and block segmentation
    /// modes only (`CoverageCheck.applies(to:)`).
    public var checksTextCoverage = true
    /// How many Tesseract engines read one image at once: after layout analysis, the page's
    /// text lines are split between them and read in parallel (`PageReading`), for the same
    /// text as one engine. Default 2, for one image at a time on two cores (the command
    /// line's single image, a library call); a batch keeps one engine per worker
    /// (`BatchScanner` sets 1), since its workers already use every core. The second
    /// engine loads in the background while the first image is decoded and prepared.
    /// Values are clamped to 1–2.
    public var recognitionEngines = 2
    /// Let the poem's language decide the reading: when the engine's languages are English
    /// and French (`eng+fra`, the default), the first lines are read, and if they are French
    /// the page is read with the French model alone; a line in the other language than the
    /// poem's is read again with that language's model (`PageReading`). On by default;
    /// `ScannedPoem.reading` says what was chosen.
    public var choosesLanguage = true
    /// When the page is also read as Tesseract reads the upright image on its own, and the
    /// surer of the two readings kept (`PlainReadingCheck`, `ReadingQuality`): `auto` (the
    /// default) where the image was changed and the evidence is weak, `always`, or `never`.
    /// `ScannedPoem.reading?.plain` says what was decided.
    public var plainReading: PlainReadingPolicy = .auto

    /// Whether the page is read line by line (`PageReading`) rather than by one call of
    /// Tesseract's page recognition: with two engines or the language choice, for the
    /// automatic page segmentation without Tesseract's own renderings or a region.
    var readsByLine: Bool {
        (recognitionEngines > 1 || (choosesLanguage && ReadingEngines.choosesLanguage(for: engine.languages)))
            && PageReading.applies(to: recognition)
    }

    /// The most Tesseract engines a scanner with this configuration loads: the engines that
    /// read a page at once (`recognitionEngines`, when the page is read line by line), and as
    /// many French-only ones again when the language choice applies (`eng+fra`). For a
    /// memory budget decided before any work (the service's `MemoryPlan`).
    public var mostEnginesLoaded: Int {
        guard readsByLine else { return 1 }
        let reading = max(1, min(recognitionEngines, 2))
        return choosesLanguage && ReadingEngines.choosesLanguage(for: engine.languages) ? 2 * reading : reading
    }

    /// Creates a configuration; every stage has sensible defaults.
    public init(
        imageLimits: ImageLimits = .standard,
        preprocessing: PreprocessingOptions = PreprocessingOptions(),
        engine: EngineConfiguration = EngineConfiguration(),
        recognition: RecognitionOptions = RecognitionOptions(),
        replacements: ReplacementSet = ReplacementSet()
    ) {
        self.imageLimits = imageLimits
        self.preprocessing = preprocessing
        self.engine = engine
        self.recognition = recognition
        self.replacements = replacements
    }
}

/// How long each stage of one scan took.
public struct StageTimings: Sendable, Equatable, Codable {
    /// Reading and decoding the file.
    public var decode: Duration
    /// Greyscale, scaling and filtering. With two engines for one image
    /// (`ScanConfiguration.recognitionEngines`) and no time limit, the curvature step runs
    /// during layout analysis and is counted in `recognize`.
    public var preprocess: Duration
    /// Tesseract's layout analysis and recognition.
    public var recognize: Duration
    /// Find/replace.
    public var personalize: Duration
    /// The text coverage check after recognition, re-reading included (`CoverageCheck`).
    public var coverageCheck: Duration

    /// Creates a record of stage durations.
    public init(
        decode: Duration = .zero, preprocess: Duration = .zero, recognize: Duration = .zero, personalize: Duration = .zero,
        coverageCheck: Duration = .zero
    ) {
        self.decode = decode
        self.preprocess = preprocess
        self.recognize = recognize
        self.personalize = personalize
        self.coverageCheck = coverageCheck
    }

    /// Every stage together.
    public var total: Duration { decode + preprocess + recognize + coverageCheck + personalize }

    enum CodingKeys: String, CodingKey { case decode, preprocess, recognize, personalize, coverageCheck }

    /// Decodes stage timings; `coverageCheck`, added later, defaults to zero when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        decode = try container.decode(Duration.self, forKey: .decode)
        preprocess = try container.decode(Duration.self, forKey: .preprocess)
        recognize = try container.decode(Duration.self, forKey: .recognize)
        personalize = try container.decode(Duration.self, forKey: .personalize)
        coverageCheck = try container.decodeIfPresent(Duration.self, forKey: .coverageCheck) ?? .zero
    }
}

/// The result of reading one photographed poem: what the image said and what it became.
public struct ScannedPoem: Sendable, Equatable {
    /// The input's name (its path, or `-` for standard input).
    public var source: String
    /// Facts about the decoded image.
    public var imageFacts: ImageFacts
    /// Size of the image Tesseract saw, after preprocessing.
    public var recognizedWidth: Int
    /// Height of the image Tesseract saw, after preprocessing.
    public var recognizedHeight: Int
    /// The preprocessing that turned the decoded image into the one Tesseract saw.
    public var preprocessing = PreprocessingOptions()
    /// What preprocessing did: measurement, scale, inversion, turn, deskew, filter.
    public var preprocessingReport: PreprocessingReport
    /// Exactly what Tesseract saw, when `ScanConfiguration.keepsPreprocessedImage` was set.
    public var preprocessedImage: PoemImage?
    /// The upright decoded image the scan started from (EXIF orientation applied, at its own
    /// size), when `ScanConfiguration.keepsUprightImage` was set.
    public var uprightImage: PoemImage? = nil
    /// What Tesseract recognised, with the lines the coverage check read again merged in.
    public var page: RecognizedPage
    /// How much of the text-like ink in the image the recognised words cover, and what was
    /// read again (`CoverageCheck`); nil when the check was off, did not apply to the page
    /// segmentation mode, or the time limit ended the first reading.
    public var coverage: TextCoverage? = nil
    /// The recognised poem before personalisation: lines and stanzas rebuilt from the layout
    /// (`PoemLayout`) and tidied (`OCRTextCleanup`).
    public var recognizedText: String
    /// The text after personalisation, with each change.
    public var personalized: PersonalizedText
    /// Time spent in each stage.
    public var timings: StageTimings
    /// How the page was read line by line (engines, language chosen), or nil when it was
    /// read by one call of Tesseract's page recognition (`ScanConfiguration.readsByLine`).
    public var reading: ReadingReport? = nil
    /// Whether the page was also read as Tesseract reads the upright image on its own, and
    /// which of the two readings was kept (`ScanConfiguration.plainReading`); nil when no
    /// comparison was considered (`never`, a region, another page segmentation mode).
    public var plainReading: PlainReadingReport? = nil
    /// The time limit recognition ran under (`RecognitionOptions.timeLimit`), for saying
    /// what stopped it when `page.timedOut`; nil when there was none.
    public var timeLimit: Duration? = nil

    /// The personalised poem's text.
    public var text: String { personalized.text }

    /// Whether the image holds text-like ink that no recognised word covers, even after the
    /// re-read: the poem may be missing lines, and a person should compare it with the image
    /// (`coverage.unreadRegions` says where). False when the check did not run.
    public var hasUnreadText: Bool { coverage.map { !$0.isComplete } ?? false }
}
