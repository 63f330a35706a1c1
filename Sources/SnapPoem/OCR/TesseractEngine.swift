import CTesseract
import Foundation

/// One initialised Tesseract (`TessBaseAPI`), reused for many images.
///
/// Owns its handle and frees it in `deinit` (`TessBaseAPIEnd`, `TessBaseAPIDelete`). The
/// handle is stateful and not thread-safe, so this type is deliberately not `Sendable`:
/// concurrency means one engine per worker (see `Recognizer`), never one shared engine.
/// `recognize` blocks its thread for seconds; call it off Swift's cooperative pool.
final class TesseractEngine {
    private let handle: OpaquePointer
    /// The configuration the engine was started with.
    let configuration: EngineConfiguration
    /// The tessdata folder the models were loaded from.
    let tessdata: TessdataLocation

    /// Starts Tesseract with `configuration`'s languages and variables.
    ///
    /// - Throws: `SnapPoemError` if the tessdata folder or a language is missing (checked
    ///   before Tesseract is asked, because `"eng+deu"` would silently load only `eng`), a
    ///   variable is unknown, or initialisation fails.
    init(configuration: EngineConfiguration) throws(SnapPoemError) {
        LibrarySetup.ensure()
        let tessdata = try TessdataLocation.resolve(explicit: configuration.tessdataDirectory)
        try tessdata.validate(configuration.languages)
        guard let created = TessBaseAPICreate() else {
            throw .engineInitializationFailed(reason: "TessBaseAPICreate returned nothing")
        }
        // Until `self` exists, the handle is owned here and freed on every failure path.
        var succeeded = false
        defer { if !succeeded { TessBaseAPIDelete(created) } }
        // Tesseract prints diagnostics to stderr; route them away. Every failure is detected
        // from return values instead, and reported with context.
        TessBaseAPISetVariable(created, "debug_file", "/dev/null")
        // The `-c` variables go in with the models (TessBaseAPIInit4), so that those read
        // only while loading (load_system_dawg, …) take effect; each is checked afterwards.
        let variables = configuration.variables.sorted { $0.key < $1.key }
        var names = variables.map { strdup($0.key) }
        var values = variables.map { strdup($0.value) }
        defer { (names + values).forEach { free($0) } }
        let status = names.withUnsafeMutableBufferPointer { namePointers in
            values.withUnsafeMutableBufferPointer { valuePointers in
                TessBaseAPIInit4(
                    created, tessdata.directory.path, configuration.languages.description,
                    configuration.engineMode.tesseractValue, nil, 0,
                    namePointers.baseAddress, valuePointers.baseAddress, variables.count, 0)
            }
        }
        guard status == 0 else {
            TessBaseAPIEnd(created)
            if configuration.engineMode != .lstm {
                throw .engineInitializationFailed(
                    reason:
                        "the \(configuration.engineMode.rawValue) engine needs traineddata that includes it; the data in \(tessdata.directory.path) may hold LSTM models only"
                )
            }
            throw .engineInitializationFailed(
                reason: "could not load \(configuration.languages) from \(tessdata.directory.path)")
        }
        let loaded = Self.loadedLanguages(created)
        for code in configuration.languages.codes where !loaded.contains(code) {
            TessBaseAPIEnd(created)
            throw .languageNotAvailable(language: code, tessdata: tessdata.directory.path, available: tessdata.availableLanguages)
        }
        for (name, value) in variables {
            if let problem = Self.problem(setting: name, to: value, on: created) {
                TessBaseAPIEnd(created)
                throw .invalidEngineVariable(name: name, reason: problem)
            }
        }
        succeeded = true
        self.handle = created
        self.configuration = configuration
        self.tessdata = tessdata
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Sets a Tesseract variable after checking that it exists and that the value fits its
    /// type (Tesseract itself accepts "banana" for a number). Returns what is wrong, or nil.
    private static func problem(setting name: String, to value: String, on handle: OpaquePointer) -> String? {
        var integer: Int32 = 0, boolean: Int32 = 0, real: Double = 0
        if TessBaseAPIGetBoolVariable(handle, name, &boolean) != 0 {
            guard ["0", "1", "true", "false", "T", "F"].contains(value) else {
                return "'\(value)' is not a boolean (use 0/1, true/false or T/F)"
            }
        } else if TessBaseAPIGetIntVariable(handle, name, &integer) != 0 {
            guard Int32(value) != nil else { return "'\(value)' is not a whole number" }
        } else if TessBaseAPIGetDoubleVariable(handle, name, &real) != 0 {
            guard Double(value) != nil else { return "'\(value)' is not a number" }
        } else if TessBaseAPIGetStringVariable(handle, name) == nil {
            return "Tesseract has no variable of that name"
        }
        guard TessBaseAPISetVariable(handle, name, value) != 0 else {
            return
                "Tesseract refused '\(value)'; variables read only while the models load (such as load_system_dawg) cannot be set with -c"
        }
        return nil
    }

    /// Sets a variable that snap-poem itself manages and knows to exist.
    private func set(_ name: String, _ value: String) {
        let accepted = TessBaseAPISetVariable(handle, name, value) != 0
        precondition(accepted, "Tesseract no longer knows the variable \(name)")
    }

    /// The languages Tesseract reports as loaded (`TessBaseAPIGetLoadedLanguagesAsVector`).
    private static func loadedLanguages(_ handle: OpaquePointer) -> [String] {
        guard let vector = TessBaseAPIGetLoadedLanguagesAsVector(handle) else { return [] }
        defer { TessDeleteTextArray(vector) }
        var codes: [String] = []
        var index = 0
        while let entry = vector[index] {
            codes.append(String(cString: entry))
            index += 1
        }
        return codes
    }

    /// Recognises one image. Blocks the calling thread.
    ///
    /// Progress, cancellation and the deadline go through Tesseract's monitor (`ETEXT_DESC`):
    /// its cancel callback answers `control.shouldStop`, which checks the deadline. Neither covers page layout analysis, which runs before the first callback.
    ///
    /// - Returns: the page; `timedOut` is set when the deadline stopped it (partial text).
    /// - Throws: `SnapPoemError.cancelled` when `control` was cancelled, or
    ///   `.recognitionFailed` when Tesseract reports an error.
    func recognize(
        _ image: PoemImage,
        options: RecognitionOptions,
        control: RecognitionControl,
        name: String
    ) throws(SnapPoemError) -> RecognizedPage {
        LibrarySetup.keepTesseractSingleThreaded()
        defer { TessBaseAPIClear(handle) }
        // Tesseract keeps a reference to the image it is given; give it a private copy so
        // that no Leptonica reference count is ever shared between threads. A region of
        // interest is applied by masking the rest white (see `PixImage.keepingOnly`).
        var source = image.pix
        if let region = options.regionOfInterest {
            let left = min(max(region.left, 0), image.width), top = min(max(region.top, 0), image.height)
            let right = min(max(region.right, left), image.width), bottom = min(max(region.bottom, top), image.height)
            guard right > left, bottom > top else {
                throw .invalidOption(
                    option: "region",
                    reason:
                        "\(region.left),\(region.top) \(region.width)×\(region.height) lies outside the \(image.width)×\(image.height) image"
                )
            }
            source = source.keepingOnly(BoundingBox(left: left, top: top, right: right, bottom: bottom))
        }
        var privateCopy = pixCopy(nil, source.pointer)
        guard privateCopy != nil else {
            throw .recognitionFailed(path: name, reason: "out of memory copying the image")
        }
        TessBaseAPISetImage2(handle, privateCopy)
        pixDestroy(&privateCopy)
        TessBaseAPISetSourceResolution(handle, Int32(options.dotsPerInch))
        TessBaseAPISetPageSegMode(handle, options.pageSegmentation.tesseractValue)
        // Per-recognition variables are set every time, so one image's choice never leaks
        // into the next image recognised by this engine.
        // A value from `-c` (the engine's variables) is the default for its image, so an
        // explicit `-c tessedit_char_whitelist=…` is not undone here.
        let fixed = configuration.variables
        set("tessedit_char_whitelist", options.allowedCharacters ?? fixed["tessedit_char_whitelist"] ?? "")
        set("tessedit_char_blacklist", options.deniedCharacters ?? fixed["tessedit_char_blacklist"] ?? "")
        set(
            "preserve_interword_spaces",
            options.preserveInterwordSpaces ? "1" : fixed["preserve_interword_spaces"] ?? "0")

        guard let monitor = TessMonitorCreate() else {
            throw .recognitionFailed(path: name, reason: "could not create Tesseract's monitor")
        }
        defer { TessMonitorDelete(monitor) }
        let context = Unmanaged.passRetained(control)
        defer { context.release() }
        TessMonitorSetCancelThis(monitor, context.toOpaque())
        TessMonitorSetCancelFunc(monitor, cancelCallback)
        TessMonitorSetProgressFunc(monitor, progressCallback)
        // No `TessMonitorSetDeadlineMSecs`: the cancel callback checks the deadline at every
        // word, and only then does snap-poem know that the deadline, not the end of the page,
        // stopped Tesseract (`control.stoppedByDeadline`).
        if control.isCancelled { throw .cancelled(path: name) }
        if control.shouldStop {
            // Out of time before starting (the image waited behind an abandoned one).
            return RecognizedPage(
                text: "", meanConfidence: 0, blocks: [], timedOut: true, imageWidth: image.width, imageHeight: image.height)
        }

        let status = TessBaseAPIRecognize(handle, monitor)
        if control.isCancelled { throw .cancelled(path: name) }
        let timedOut = control.stoppedByDeadline
        guard status == 0 || timedOut else {
            throw .recognitionFailed(path: name, reason: "Tesseract returned \(status)")
        }
        control.report(100)
        var page = RecognizedPage(
            text: copyText(TessBaseAPIGetUTF8Text(handle)),
            meanConfidence: Int(TessBaseAPIMeanTextConf(handle)),
            blocks: readLayout(),
            timedOut: timedOut,
            imageWidth: image.width,
            imageHeight: image.height)
        for format in options.renderings {
            page.renderings[format] = render(format)
        }
        return page
    }

    /// The TSV columns Tesseract writes, which it does not name itself.
    static let tsvHeader = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

    private func render(_ format: PageRenderingFormat) -> String {
        switch format {
        case .hocr: copyText(TessBaseAPIGetHOCRText(handle, 0))
        case .tsv: Self.tsvHeader + copyText(TessBaseAPIGetTsvText(handle, 0))
        case .alto: copyText(TessBaseAPIGetAltoText(handle, 0))
        }
    }

    /// Walks Tesseract's result iterator word by word, building blocks → paragraphs → lines.
    private func readLayout() -> [RecognizedBlock] {
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var blocks: [RecognizedBlock] = []
        repeat {
            guard let wordText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let word = RecognizedWord(
                text: copyText(wordText),
                confidence: Double(TessResultIteratorConfidence(iterator, RIL_WORD)),
                boundingBox: box(page, RIL_WORD))
            if blocks.isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 {
                blocks.append(RecognizedBlock(paragraphs: [], boundingBox: box(page, RIL_BLOCK)))
            }
            if blocks[blocks.count - 1].paragraphs.isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_PARA) != 0 {
                blocks[blocks.count - 1].paragraphs.append(RecognizedParagraph(lines: [], boundingBox: box(page, RIL_PARA)))
            }
            let paragraphIndex = blocks[blocks.count - 1].paragraphs.count - 1
            if blocks[blocks.count - 1].paragraphs[paragraphIndex].lines.isEmpty
                || TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0
            {
                let line = RecognizedLine(
                    words: [], boundingBox: box(page, RIL_TEXTLINE),
                    confidence: Double(TessResultIteratorConfidence(iterator, RIL_TEXTLINE)))
                blocks[blocks.count - 1].paragraphs[paragraphIndex].lines.append(line)
            }
            let lineIndex = blocks[blocks.count - 1].paragraphs[paragraphIndex].lines.count - 1
            blocks[blocks.count - 1].paragraphs[paragraphIndex].lines[lineIndex].words.append(word)
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return blocks
    }

    private func box(_ page: OpaquePointer?, _ level: TessPageIteratorLevel) -> BoundingBox {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom)
        return BoundingBox(left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom))
    }
}

/// Copies a string Tesseract allocated into Swift and frees it (`TessDeleteText`).
func copyText(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    defer { TessDeleteText(pointer) }
    return String(cString: pointer)
}

/// Tesseract's cancel callback: the context is the `RecognitionControl` of this recognition.
private let cancelCallback: TessCancelFunc = { context, _ in
    guard let context else { return false }
    return Unmanaged<RecognitionControl>.fromOpaque(context).takeUnretainedValue().shouldStop
}

/// Tesseract's progress callback (once per text line). It has no context argument of its own,
/// so the control is fetched from the monitor's cancel context.
private let progressCallback: TessProgressFunc = { monitor, _, _, _, _ in
    guard let monitor, let context = TessMonitorGetCancelThis(monitor) else { return false }
    let control = Unmanaged<RecognitionControl>.fromOpaque(context).takeUnretainedValue()
    control.report(Int(TessMonitorGetProgress(monitor)))
    return control.shouldStop
}
