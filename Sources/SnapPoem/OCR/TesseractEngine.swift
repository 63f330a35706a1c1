import CTesseract
import CTesseractShim
import Foundation

/// One initialised Tesseract (`TessBaseAPI`), reused for many images.
///
/// Owns its handle and frees it in `deinit` (`TessBaseAPIEnd`, `TessBaseAPIDelete`). The
/// handle is stateful and not thread-safe, so this type is deliberately not `Sendable`:
/// concurrency means one engine per worker (see `Recognizer`), never one shared engine.
/// `recognize` blocks its thread for seconds; call it off Swift's cooperative pool.
///
/// Every Tesseract call that allocates goes through `CTesseractShim`, which catches the C++
/// exceptions Tesseract throws when memory runs out: they become `SnapPoemError`s here
/// instead of terminating the process. An engine that ran out of memory in the middle of a
/// recognition may be left inconsistent, so it marks itself `isDamaged`, its owner replaces
/// it before the next image, and its handle is never freed (deleting it was seen to abort).
final class TesseractEngine {
    let handle: OpaquePointer
    /// The configuration the engine was started with.
    let configuration: EngineConfiguration
    /// The tessdata folder the models were loaded from.
    let tessdata: TessdataLocation
    /// Set when a Tesseract call failed half-way (out of memory, an exception): the engine
    /// must not be used again.
    private(set) var isDamaged = false

    /// Starts Tesseract with `configuration`'s languages and variables.
    ///
    /// - Throws: `SnapPoemError` if the tessdata folder or a language is missing (checked
    ///   before Tesseract is asked, because `"eng+deu"` would silently load only `eng`), a
    ///   variable is unknown or process-wide, or initialisation fails (out of memory
    ///   included).
    init(configuration: EngineConfiguration) throws(SnapPoemError) {
        try LibrarySetup.ensureTesseract()
        let tessdata = try TessdataLocation.resolve(explicit: configuration.tessdataDirectory)
        try tessdata.validate(configuration.languages)
        // `debug_file` and the other process-wide variables are shared by every engine in
        // the process: one engine's `-c` would silently change all the others.
        let processWide = LibrarySetup.processWideVariables
        for name in configuration.variables.keys.sorted() where processWide.contains(name) {
            throw .invalidEngineVariable(
                name: name,
                reason:
                    "it is process-wide in Tesseract (shared by every engine in this process), so snap-poem does not set it for one engine"
            )
        }
        let languages = configuration.languages.description
        var createdHandle: OpaquePointer?
        guard snap_poem_tess_create(&createdHandle) == SNAP_POEM_CALL_RETURNED, let created = createdHandle else {
            throw .engineInitializationFailed(reason: "out of memory while creating a Tesseract engine for \(languages)")
        }
        // Until `self` exists, the handle is owned here and freed on every failure path.
        var succeeded = false
        defer { if !succeeded { TessBaseAPIDelete(created) } }
        // The `-c` variables go in with the models (TessBaseAPIInit4), so that those read
        // only while loading (load_system_dawg, …) take effect; each is checked afterwards.
        let variables = configuration.variables.sorted { $0.key < $1.key }
        var names = variables.map { strdup($0.key) }
        var values = variables.map { strdup($0.value) }
        defer { (names + values).forEach { free($0) } }
        guard !names.contains(nil), !values.contains(nil) else {
            throw .engineInitializationFailed(reason: "out of memory while preparing Tesseract's variables")
        }
        var status: Int32 = -1
        let call = names.withUnsafeMutableBufferPointer { namePointers in
            values.withUnsafeMutableBufferPointer { valuePointers in
                snap_poem_tess_init4(
                    created, tessdata.directory.path, languages, configuration.engineMode.tesseractValue,
                    namePointers.baseAddress, valuePointers.baseAddress, variables.count, &status)
            }
        }
        guard call == SNAP_POEM_CALL_RETURNED else {
            throw .engineInitializationFailed(reason: Self.faultReason(call, while: "loading \(languages) from \(tessdata.directory.path)"))
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
        let loaded: [String]
        do throws(TesseractFault) {
            loaded = try Self.loadedLanguages(created)
        } catch {
            TessBaseAPIEnd(created)
            throw .engineInitializationFailed(reason: Self.faultReason(error.status, while: "listing the loaded languages"))
        }
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
        // A Tesseract that threw half-way may hold dangling pointers: deleting it was seen to
        // abort in free(). It is left allocated; that costs its memory, once per failure.
        guard !isDamaged else { return }
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// What a guarded call that did not return means, for an error message.
    static func faultReason(_ status: snap_poem_call_status, while doing: String) -> String {
        status == SNAP_POEM_CALL_OUT_OF_MEMORY
            ? "out of memory while \(doing)" : "Tesseract failed with an internal error while \(doing)"
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
        var accepted: Int32 = 0
        let call = snap_poem_tess_set_variable(handle, name, value, &accepted)
        guard call == SNAP_POEM_CALL_RETURNED else { return faultReason(call, while: "setting it") }
        guard accepted != 0 else {
            return
                "Tesseract refused '\(value)'; variables read only while the models load (such as load_system_dawg) cannot be set with -c"
        }
        return nil
    }

    /// Sets a variable that snap-poem itself manages and knows to exist.
    func set(_ name: String, _ value: String) throws(TesseractFault) {
        var accepted: Int32 = 0
        try TesseractFault.check(snap_poem_tess_set_variable(handle, name, value, &accepted))
        precondition(accepted != 0, "Tesseract no longer knows the variable \(name)")
    }

    /// The languages Tesseract reports as loaded (`TessBaseAPIGetLoadedLanguagesAsVector`).
    private static func loadedLanguages(_ handle: OpaquePointer) throws(TesseractFault) -> [String] {
        var result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        try TesseractFault.check(snap_poem_tess_loaded_languages(handle, &result))
        guard let vector = result else { return [] }
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
    /// its cancel callback answers `control.shouldStop`, which checks the deadline. Neither
    /// covers page layout analysis, which runs before the first callback.
    ///
    /// - Returns: the page; `timedOut` is set when the deadline stopped it (partial text,
    ///   and the renderings asked for, of what was recognised).
    /// - Throws: `SnapPoemError.cancelled` when `control` was cancelled, `.invalidOption`
    ///   for a resolution outside 70–2400 dpi or a region outside the image,
    ///   `.outOfMemory` when memory ran out (the engine is then `isDamaged`), or
    ///   `.recognitionFailed` when Tesseract reports an error.
    func recognize(
        _ image: PoemImage,
        options: RecognitionOptions,
        control: RecognitionControl,
        name: String
    ) throws(SnapPoemError) -> RecognizedPage {
        precondition(!isDamaged, "a damaged engine must be replaced, not used")
        guard RecognitionOptions.dotsPerInchRange.contains(options.dotsPerInch) else {
            throw .invalidOption(
                option: "dotsPerInch", reason: "\(options.dotsPerInch) is outside \(RecognitionOptions.dotsPerInchRange) dots per inch")
        }
        let thread = LibrarySetup.enterTesseract()
        defer { LibrarySetup.leaveTesseract(thread) }
        defer { if !isDamaged { TessBaseAPIClear(handle) } }
        return try recognizeChecked(image, options: options, control: control, name: name)
    }

    /// Turns a guarded call that did not return into an error naming the image, and marks
    /// the engine damaged.
    func check(_ status: snap_poem_call_status, name: String, doing: String) throws(SnapPoemError) {
        guard status != SNAP_POEM_CALL_RETURNED else { return }
        throw damaged(by: TesseractFault(status: status), name: name, doing: doing)
    }

    /// Marks the engine damaged by `fault` and returns the error to report for `name`.
    func damaged(by fault: TesseractFault, name: String, doing: String) -> SnapPoemError {
        isDamaged = true
        return fault.named(name, doing: doing)
    }

    /// The body of `recognize`.
    private func recognizeChecked(
        _ image: PoemImage,
        options: RecognitionOptions,
        control: RecognitionControl,
        name: String
    ) throws(SnapPoemError) -> RecognizedPage {
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
            do throws(SnapPoemError) {
                source = try source.keepingOnly(BoundingBox(left: left, top: top, right: right, bottom: bottom))
            } catch {
                throw error.naming(name)
            }
        }
        guard let handed = source.hand(to: handle) else {
            throw .outOfMemory(path: name, stage: "copying the \(image.width)×\(image.height) image for Tesseract")
        }
        try check(handed, name: name, doing: "handing the image to Tesseract")
        TessBaseAPISetSourceResolution(handle, Int32(options.dotsPerInch))
        TessBaseAPISetPageSegMode(handle, options.pageSegmentation.tesseractValue)
        // Per-recognition variables are set every time, so one image's choice never leaks
        // into the next image recognised by this engine.
        // A value from `-c` (the engine's variables) is the default for its image, so an
        // explicit `-c tessedit_char_whitelist=…` is not undone here.
        let fixed = configuration.variables
        do throws(TesseractFault) {
            try set("tessedit_char_whitelist", options.allowedCharacters ?? fixed["tessedit_char_whitelist"] ?? "")
            try set("tessedit_char_blacklist", options.deniedCharacters ?? fixed["tessedit_char_blacklist"] ?? "")
            try set(
                "preserve_interword_spaces",
                options.preserveInterwordSpaces ? "1" : fixed["preserve_interword_spaces"] ?? "0")
        } catch {
            throw damaged(by: error, name: name, doing: "setting Tesseract's variables")
        }

        var createdMonitor: OpaquePointer?
        try check(snap_poem_tess_monitor_create(&createdMonitor), name: name, doing: "starting recognition")
        guard let monitor = createdMonitor else {
            throw .outOfMemory(path: name, stage: "starting recognition")
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
            return RecognizedPage.timedOutBeforeText(
                imageWidth: image.width, imageHeight: image.height, renderings: options.renderings,
                dotsPerInch: options.dotsPerInch)
        }

        // Tesseract 5.3 does not check every allocation it makes during layout analysis
        // (SetBlobStrokeWidth dereferences a failed pixDistanceFunction): out of memory
        // there is a segmentation fault, not an exception. Make sure the room it needs is
        // there before it starts.
        let needed = MemoryHeadroom.recognitionBytes(width: image.width, height: image.height)
        guard MemoryHeadroom.isAvailable(needed) else {
            throw .outOfMemory(
                path: name, stage: "recognising the \(image.width)×\(image.height) image (Tesseract needs about \(needed >> 20) MiB more)")
        }
        var status: Int32 = -1
        try check(snap_poem_tess_recognize(handle, monitor, &status), name: name, doing: "recognising the image")
        if control.isCancelled { throw .cancelled(path: name) }
        let timedOut = control.stoppedByDeadline
        guard status == 0 || timedOut else {
            // Tesseract reports some failed allocations this way rather than by throwing.
            let memory = MemoryHeadroom.isAvailable(MemoryHeadroom.fixedBytes) ? "" : "; memory is nearly exhausted"
            throw .recognitionFailed(path: name, reason: "Tesseract returned \(status)\(memory)")
        }
        control.report(100)
        do throws(TesseractFault) {
            var text: UnsafeMutablePointer<CChar>?
            try TesseractFault.check(snap_poem_tess_utf8_text(handle, &text))
            var confidence: Int32 = 0
            try TesseractFault.check(snap_poem_tess_mean_text_conf(handle, &confidence))
            var page = RecognizedPage(
                text: copyText(text),
                meanConfidence: Int(confidence),
                blocks: try readLayout(),
                timedOut: timedOut,
                imageWidth: image.width,
                imageHeight: image.height)
            for format in options.renderings {
                page.renderings[format] = try render(format)
            }
            return page
        } catch {
            throw damaged(by: error, name: name, doing: "reading Tesseract's results")
        }
    }

    /// The TSV columns Tesseract writes, which it does not name itself.
    static let tsvHeader = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

    private func render(_ format: PageRenderingFormat) throws(TesseractFault) -> String {
        var text: UnsafeMutablePointer<CChar>?
        let kind: Int32 =
            switch format {
            case .hocr: 0
            case .tsv: 1
            case .alto: 2
            }
        try TesseractFault.check(snap_poem_tess_rendering(handle, kind, &text))
        return format == .tsv ? Self.tsvHeader + copyText(text) : copyText(text)
    }

    /// Walks Tesseract's result iterator word by word, building blocks → paragraphs → lines.
    private func readLayout() throws(TesseractFault) -> [RecognizedBlock] {
        var created: OpaquePointer?
        try TesseractFault.check(snap_poem_tess_iterator(handle, &created))
        guard let iterator = created else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var blocks: [RecognizedBlock] = []
        var more: Int32 = 1
        repeat {
            var wordText: UnsafeMutablePointer<CChar>?
            try TesseractFault.check(snap_poem_tess_iterator_text(iterator, RIL_WORD, &wordText))
            if let wordText {
                let word = RecognizedWord(
                    text: copyText(wordText),
                    confidence: Double(TessResultIteratorConfidence(iterator, RIL_WORD)),
                    boundingBox: box(page, RIL_WORD), isFromDictionary: TessResultIteratorWordIsFromDictionary(iterator) != 0)
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
            }
            try TesseractFault.check(snap_poem_tess_iterator_next(iterator, RIL_WORD, &more))
        } while more != 0
        return blocks
    }

    func box(_ page: OpaquePointer?, _ level: TessPageIteratorLevel) -> BoundingBox {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom)
        return BoundingBox(left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom))
    }
}

/// A guarded Tesseract call that did not return (see `CTesseractShim`).
struct TesseractFault: Error {
    /// How the call ended: out of memory, or another C++ exception.
    let status: snap_poem_call_status

    /// Throws when `status` is not `SNAP_POEM_CALL_RETURNED`.
    static func check(_ status: snap_poem_call_status) throws(TesseractFault) {
        guard status == SNAP_POEM_CALL_RETURNED else { throw TesseractFault(status: status) }
    }

    /// The error to report for the image `name`, the fault having happened while `doing`.
    func named(_ name: String, doing: String) -> SnapPoemError {
        status == SNAP_POEM_CALL_OUT_OF_MEMORY
            ? .outOfMemory(path: name, stage: "\(doing) (Tesseract)")
            : .recognitionFailed(path: name, reason: "Tesseract failed with an internal error while \(doing)")
    }
}

/// Copies a string Tesseract allocated into Swift and frees it (`TessDeleteText`).
func copyText(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    defer { TessDeleteText(pointer) }
    return String(cString: pointer)
}

/// Tesseract's cancel callback: the context is the `RecognitionControl` of this recognition.
let cancelCallback: TessCancelFunc = { context, _ in
    guard let context else { return false }
    return Unmanaged<RecognitionControl>.fromOpaque(context).takeUnretainedValue().shouldStop
}

/// Tesseract's progress callback (once per text line). It has no context argument of its own,
/// so the control is fetched from the monitor's cancel context.
let progressCallback: TessProgressFunc = { monitor, _, _, _, _ in
    guard let monitor, let context = TessMonitorGetCancelThis(monitor) else { return false }
    let control = Unmanaged<RecognitionControl>.fromOpaque(context).takeUnretainedValue()
    control.report(Int(TessMonitorGetProgress(monitor)))
    return control.shouldStop
}
