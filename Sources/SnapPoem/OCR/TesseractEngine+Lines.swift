import CTesseract
import CTesseractShim

/// One text line found by Tesseract's page layout analysis, before any recognition.
public struct LayoutLine: Sendable, Equatable, Codable {
    /// Which block (in Tesseract's reading order, from 0) the line belongs to.
    public var block: Int
    /// Which paragraph of the page (from 0) the line belongs to, as layout analysis sees it.
    public var paragraph: Int
    /// The line's box in the analysed image.
    public var box: BoundingBox
    /// The box of the line's block.
    public var blockBox: BoundingBox

    /// Creates a layout line.
    public init(block: Int, paragraph: Int, box: BoundingBox, blockBox: BoundingBox) {
        self.block = block
        self.paragraph = paragraph
        self.box = box
        self.blockBox = blockBox
    }
}

/// Layout analysis alone, and recognition line by line: the two halves of what
/// `TessBaseAPIRecognize` does, taken apart so that the lines of one page can be shared
/// between engines (`PageReading`). Tesseract's LSTM recognises a page one text line at a
/// time anyway; reading each line as a rectangle in single-line mode gives the same text.
extension TesseractEngine {
    /// The text lines of `image` in Tesseract's reading order (`TessBaseAPIAnalyseLayout`,
    /// page segmentation `options.pageSegmentation`). Blocks the calling thread.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` (the engine is then `isDamaged`),
    ///   `.invalidOption` for a resolution outside 70–2400 dpi.
    func analyseLayout(_ image: PoemImage, options: RecognitionOptions, name: String) throws(SnapPoemError) -> [LayoutLine] {
        precondition(!isDamaged, "a damaged engine must be replaced, not used")
        let thread = LibrarySetup.enterTesseract()
        defer { LibrarySetup.leaveTesseract(thread) }
        defer { if !isDamaged { TessBaseAPIClear(handle) } }
        try hand(image, options: options, mode: options.pageSegmentation, name: name)
        let needed = MemoryHeadroom.recognitionBytes(width: image.width, height: image.height)
        guard MemoryHeadroom.isAvailable(needed) else {
            throw .outOfMemory(
                path: name,
                stage: "analysing the layout of the \(image.width)×\(image.height) image (Tesseract needs about \(needed >> 20) MiB more)")
        }
        var created: OpaquePointer?
        try check(snap_poem_tess_analyse_layout(handle, &created), name: name, doing: "analysing the page layout")
        guard let iterator = created else { return [] }
        defer { TessPageIteratorDelete(iterator) }
        var lines: [LayoutLine] = []
        var block = -1, paragraph = -1
        var blockBox = BoundingBox(left: 0, top: 0, right: 0, bottom: 0)
        repeat {
            if block < 0 || TessPageIteratorIsAtBeginningOf(iterator, RIL_BLOCK) != 0 {
                block += 1
                blockBox = box(iterator, RIL_BLOCK)
            }
            if paragraph < 0 || TessPageIteratorIsAtBeginningOf(iterator, RIL_PARA) != 0 { paragraph += 1 }
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            if TessPageIteratorBoundingBox(iterator, RIL_TEXTLINE, &left, &top, &right, &bottom) != 0, right > left, bottom > top {
                lines.append(
                    LayoutLine(
                        block: block, paragraph: paragraph,
                        box: BoundingBox(left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom)), blockBox: blockBox))
            }
        } while TessPageIteratorNext(iterator, RIL_TEXTLINE) != 0
        return lines
    }

    /// Reads the lines `queue` hands out from `end` until it has none left, each box as one
    /// text line (page segmentation 7 on a rectangle, `TessBaseAPISetRectangle`, word boxes
    /// in the whole image's pixels), delivering each line to the queue as it is read (progress counts the lines
    /// this engine read against all of the queue's). Blocks the calling thread.
    ///
    /// - Returns: whether the deadline stopped the reading.
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory` (the engine is then `isDamaged`),
    ///   `.recognitionFailed`.
    func recognizeLines(
        _ image: PoemImage, from queue: LineQueue, end: LineQueue.End, options: RecognitionOptions, control: RecognitionControl,
        name: String
    ) throws(SnapPoemError) -> Bool {
        precondition(!isDamaged, "a damaged engine must be replaced, not used")
        let thread = LibrarySetup.enterTesseract()
        defer { LibrarySetup.leaveTesseract(thread) }
        defer { if !isDamaged { TessBaseAPIClear(handle) } }
        try hand(image, options: options, mode: .singleLine, name: name)
        var createdMonitor: OpaquePointer?
        try check(snap_poem_tess_monitor_create(&createdMonitor), name: name, doing: "starting recognition")
        guard let monitor = createdMonitor else { throw .outOfMemory(path: name, stage: "starting recognition") }
        defer { TessMonitorDelete(monitor) }
        let context = Unmanaged.passRetained(control)
        defer { context.release() }
        TessMonitorSetCancelThis(monitor, context.toOpaque())
        TessMonitorSetCancelFunc(monitor, cancelCallback)
        var read = 0
        while true {
            if control.isCancelled { throw .cancelled(path: name) }
            if control.shouldStop { return true }
            guard let (position, line) = queue.take(from: end) else { return false }
            guard let rectangle = Self.lineRectangle(line, in: image) else {
                queue.deliver(RecognizedLine(words: [], boundingBox: line, confidence: 0), at: position)
                continue
            }
            try check(
                snap_poem_tess_set_rectangle(
                    handle, Int32(rectangle.left), Int32(rectangle.top), Int32(rectangle.width), Int32(rectangle.height)),
                name: name, doing: "choosing a line to recognise")
            var status: Int32 = -1
            try check(snap_poem_tess_recognize(handle, monitor, &status), name: name, doing: "recognising a line")
            if control.isCancelled { throw .cancelled(path: name) }
            if control.stoppedByDeadline { return true }
            guard status == 0 else { throw .recognitionFailed(path: name, reason: "Tesseract returned \(status) on a line") }
            do throws(TesseractFault) {
                var read = try readLine(boundingBox: line)
                if Self.spansWholeWidth(line, in: image), !Self.isSure(read) {
                    read = RecognizedLine(words: [], boundingBox: line, confidence: 0)
                }
                queue.deliver(read, at: position)
            } catch {
                throw damaged(by: error, name: name, doing: "reading Tesseract's results")
            }
            read += 1
            control.report(Int(100 * Double(read) / Double(queue.boxes.count)))
        }
    }

    /// The rectangle a line is read in: its box with a margin of a sixth of its height above
    /// and below and half its height to the sides, within the image; nil when nothing is left.
    ///
    /// The rectangle never spans the image's whole width. `Tesseract::BestPix()` takes the
    /// LSTM's line image from the whole original picture whenever that is as wide as the
    /// thresholded image, which a rectangle as wide as the page is; the rectangle's rows are
    /// then looked up in the whole picture, counted from its bottom (tesseract-ocr/tesseract
    /// #845, naptha/tesseract.js#936). Measured with Tesseract 5.3's C API alone: a border
    /// along the top of a motion-blurred photo read as the poem's last line, which then stood
    /// twice in the text, and a line of `Lenore.png` as garbage; one column narrower, each
    /// reads as itself (`LineRectangleTests`). A column at the side the line's own box leaves
    /// free is dropped.
    static func lineRectangle(_ line: BoundingBox, in image: PoemImage) -> BoundingBox? {
        lineRectangle(line, width: image.width, height: image.height)
    }

    /// Whether `line`'s rectangle (`lineRectangle`) would reach both sides of `image`, the
    /// margins included. Text seldom does: such a "line" is mostly the edge of the paper, a
    /// rule or a band of noise across the photo, and is kept only when it reads surely
    /// (`isSure`), as the coverage check keeps a line it finds (measured on the corpus's
    /// tuning part: read as it is, these lines added 0 to 41 %-confident garbage).
    static func spansWholeWidth(_ line: BoundingBox, in image: PoemImage) -> Bool {
        let side = sideMargin(of: line)
        return line.left - side <= 0 && line.right + side >= image.width
    }

    /// The margin a line's rectangle has to each side: half the line's height, 4 px at least.
    private static func sideMargin(of line: BoundingBox) -> Int { max(4, line.height / 2) }

    /// The least mean word confidence of a line as wide as the page (`spansWholeWidth`) for
    /// its reading to be kept; the coverage check's bar for a line it finds.
    static let leastWholeWidthConfidence = 60.0

    /// Whether `line`'s words with visible text were read with a mean confidence
    /// (`PageReading.confidence(of:)`, 0 for none) of at least `leastWholeWidthConfidence`.
    static func isSure(_ line: RecognizedLine) -> Bool {
        PageReading.confidence(of: line) >= leastWholeWidthConfidence
    }

    /// `lineRectangle(_:in:)` in an image of `width`×`height` pixels.
    static func lineRectangle(_ line: BoundingBox, width: Int, height: Int) -> BoundingBox? {
        let margin = max(2, line.height / 6), side = sideMargin(of: line)
        var left = max(0, line.left - side), right = min(width, line.right + side)
        let top = max(0, line.top - margin), bottom = min(height, line.bottom + margin)
        if left == 0, right == width {
            if line.left > 0 { left = 1 } else { right = width - 1 }
        }
        guard right > left, bottom > top else { return nil }
        return BoundingBox(left: left, top: top, right: right, bottom: bottom)
    }

    /// Gives Tesseract `image` (`PixImage.hand(to:)`) with the resolution, page segmentation mode
    /// and per-recognition variables of `options`.
    private func hand(_ image: PoemImage, options: RecognitionOptions, mode: PageSegmentationMode, name: String) throws(SnapPoemError) {
        guard RecognitionOptions.dotsPerInchRange.contains(options.dotsPerInch) else {
            throw .invalidOption(
                option: "dotsPerInch", reason: "\(options.dotsPerInch) is outside \(RecognitionOptions.dotsPerInchRange) dots per inch")
        }
        guard let handed = image.pix.hand(to: handle) else {
            throw .outOfMemory(path: name, stage: "copying the \(image.width)×\(image.height) image for Tesseract")
        }
        try check(handed, name: name, doing: "handing the image to Tesseract")
        TessBaseAPISetSourceResolution(handle, Int32(options.dotsPerInch))
        TessBaseAPISetPageSegMode(handle, mode.tesseractValue)
        let fixed = configuration.variables
        do throws(TesseractFault) {
            try set("tessedit_char_whitelist", options.allowedCharacters ?? fixed["tessedit_char_whitelist"] ?? "")
            try set("tessedit_char_blacklist", options.deniedCharacters ?? fixed["tessedit_char_blacklist"] ?? "")
            try set("preserve_interword_spaces", options.preserveInterwordSpaces ? "1" : fixed["preserve_interword_spaces"] ?? "0")
        } catch {
            throw damaged(by: error, name: name, doing: "setting Tesseract's variables")
        }
    }

    /// The words of the one line just recognised.
    private func readLine(boundingBox: BoundingBox) throws(TesseractFault) -> RecognizedLine {
        var created: OpaquePointer?
        try TesseractFault.check(snap_poem_tess_iterator(handle, &created))
        var line = RecognizedLine(words: [], boundingBox: boundingBox, confidence: 0)
        guard let iterator = created else { return line }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        line.confidence = Double(TessResultIteratorConfidence(iterator, RIL_TEXTLINE))
        var more: Int32 = 1
        repeat {
            var wordText: UnsafeMutablePointer<CChar>?
            try TesseractFault.check(snap_poem_tess_iterator_text(iterator, RIL_WORD, &wordText))
            if let wordText {
                line.words.append(
                    RecognizedWord(
                        text: copyText(wordText), confidence: Double(TessResultIteratorConfidence(iterator, RIL_WORD)),
                        boundingBox: box(page, RIL_WORD), isFromDictionary: TessResultIteratorWordIsFromDictionary(iterator) != 0))
            }
            try TesseractFault.check(snap_poem_tess_iterator_next(iterator, RIL_WORD, &more))
        } while more != 0
        return line
    }
}
