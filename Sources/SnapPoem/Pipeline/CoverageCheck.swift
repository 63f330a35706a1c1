import Foundation

/// The step after recognition that keeps a poem from coming back shorter without a word:
/// it compares the text-like ink in the image Tesseract saw (`TextInk`) with the words
/// Tesseract returned, reads the rows it skipped again, merges what they say into the page in
/// reading order, and reports what is still unread (`TextCoverage`).
///
/// Tesseract's page layout analysis (`--psm 3`) sometimes drops whole lines or stanzas, most
/// often on text tilted clockwise by 2° or more, leaving no block over them and a high mean
/// confidence. The check needs both the image and the recognised page, so it lives here, where
/// the stages meet, and uses the scanner's own `Recognizer` for the re-read.
///
/// How a region is read again: the image is cropped to the uncovered rows (with a margin of
/// an x-height), every mark that belongs to a word already read, or that is larger than a
/// letter (a table's edge, a picture), is painted white, and the crop is recognised as one
/// block of text (`--psm 6`). Only lines that Tesseract reads with a mean word confidence of
/// at least `leastRereadConfidence` and that lie on the uncovered ink are kept, so paper
/// texture and drawings cannot add garbage.
public struct CoverageCheck: Sendable {
    /// The engine used to read skipped regions again.
    public let recognizer: Recognizer

    /// The fewest uncovered text-like shapes side by side in a row (a short word) for the
    /// row to count as skipped. Shorter gaps (a lost comma, a dropped one-letter word) are
    /// counted in the shares but not read again.
    public static let shortestSkippedRun = 4
    /// The least mean word confidence of a line found by the re-read for it to be kept.
    public static let leastRereadConfidence = 60.0
    /// How far, in x-heights, a shape's centre may lie outside a word's box and still count as
    /// covered by it (Tesseract's boxes hug the ink; the measuring copy is reduced).
    public static let coverMargin = 0.3

    /// Creates a check that re-reads with `recognizer`.
    public init(recognizer: Recognizer) {
        self.recognizer = recognizer
    }

    /// Measures how much of `ink` the words of `page` cover, without reading anything again.
    public static func measure(_ page: RecognizedPage, ink: TextInk) -> TextCoverage {
        let words = Self.wordBoxes(of: page)
        let covered = Self.coveredShapes(of: ink, by: words)
        let share = Self.share(covered, of: ink)
        return TextCoverage(
            textShapeCount: ink.shapeCount, coveredBeforeReread: share, coveredAfterReread: share,
            unreadRegions: Self.skippedRegions(of: ink, covered: covered))
    }

    /// Checks `page`, the reading of `image`, reads every skipped region again and returns the
    /// page with the lines found merged in, and the coverage before and after.
    ///
    /// - Parameters:
    ///   - page: Tesseract's first reading of `image`.
    ///   - image: the image that was read, exactly as Tesseract saw it.
    ///   - options: the options of the first reading; the re-read uses them with page
    ///     segmentation `.singleBlock` and no region of interest. A region of interest limits
    ///     the check to the ink inside it.
    ///   - lightOnDark: the text in `image` is lighter than its ground.
    ///   - deadline: when the scan's time limit runs out; regions not read by then are
    ///     reported unread and `rereadCutShort` is set.
    ///   - name: how the image is named in errors.
    /// - Throws: `SnapPoemError.cancelled` when the calling task is cancelled,
    ///   `.recognitionFailed` when Tesseract fails on a region.
    public func complete(
        _ page: RecognizedPage,
        in image: PoemImage,
        options: RecognitionOptions = RecognitionOptions(),
        lightOnDark: Bool = false,
        deadline: ContinuousClock.Instant? = nil,
        name: String = "image"
    ) async throws(SnapPoemError) -> (page: RecognizedPage, coverage: TextCoverage) {
        let interest = options.regionOfInterest
        let ink: TextInk
        do throws(SnapPoemError) {
            ink = try await offload { () throws(SnapPoemError) in try TextInk.find(in: image, lightOnDark: lightOnDark, within: interest) }
        } catch {
            throw error.naming(name)
        }
        if Self.readsOnlyNoise(page, ink: ink) {
            var nothing = page
            nothing.blocks = []
            nothing.text = ""
            nothing.meanConfidence = 0
            return (nothing, Self.measure(nothing, ink: ink))
        }
        let before = Self.measure(page, ink: ink)
        guard !before.unreadRegions.isEmpty else { return (page, before) }
        let firstCovered = Self.coveredShapes(of: ink, by: Self.wordBoxes(of: page))
        let uncovered = zip(ink.rows, firstCovered).flatMap { row, flags in
            zip(row.shapes, flags).filter { !$0.1 }.map(\.0)
        }

        var merged = page
        var reread: [RereadRegion] = []
        var cutShort = false
        var rereadOptions = options
        rereadOptions.pageSegmentation = .singleBlock
        rereadOptions.regionOfInterest = nil
        rereadOptions.renderings = []
        for region in before.unreadRegions {
            if Task.isCancelled { throw .cancelled(path: name) }
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    cutShort = true
                    break
                }
                rereadOptions.timeLimit = left
            }
            let words = Self.wordBoxes(of: merged)
            let margin = Int((Self.coverMargin * ink.xHeight).rounded())
            let bounds = LetterBounds(xHeight: ink.xHeight, imageWidth: image.width, imageHeight: image.height)
            let keepsShape: @Sendable (BoundingBox) -> Bool = { shape in
                let placed = shape.offset(by: region.left, region.top)
                return !bounds.exceeds(placed)
                    && !words.contains { $0.expanded(by: margin, margin).contains(x: placed.centerX, y: placed.centerY) }
            }
            guard let crop = await offload({ image.cropped(to: region, keepingShapes: keepsShape) }) else {
                reread.append(RereadRegion(box: region, lineCount: 0, wordCount: 0))
                continue
            }
            // Tesseract reads a block of tilted lines as one interleaved line: level it first.
            let tilt = ink.tilt(within: region)
            let levels = abs(tilt) >= ImagePreprocessor.minimumDeskewAngle
            let level: PoemImage
            do throws(SnapPoemError) {
                level = levels ? try await offload { () throws(SnapPoemError) in try ImagePreprocessor.deskewed(crop, angle: -tilt) } : crop
            } catch {
                throw error.naming(name)
            }
            var found = try await recognizer.recognize(level, options: rereadOptions, name: name)
            if levels { found = Self.turnedBack(found, by: -tilt, from: level, to: crop) }
            if found.timedOut { cutShort = true }
            let skipped = uncovered.filter { region.contains(x: $0.centerX, y: $0.centerY) }
            let lines = Self.trustworthyLines(of: found, offsetBy: region, covering: skipped)
            let (added, wordCount) = Self.merge(lines, into: &merged, region: region, xHeight: ink.xHeight)
            reread.append(RereadRegion(box: region, lineCount: added, wordCount: wordCount))
            if found.timedOut { break }
        }
        if reread.contains(where: { $0.wordCount > 0 }) { merged.text = Self.text(of: merged) }
        let words = Self.wordBoxes(of: merged)
        let covered = Self.coveredShapes(of: ink, by: words)
        let after = TextCoverage(
            textShapeCount: ink.shapeCount, coveredBeforeReread: before.coveredBeforeReread,
            coveredAfterReread: Self.share(covered, of: ink), rereadRegions: reread,
            unreadRegions: Self.skippedRegions(of: ink, covered: covered), rereadCutShort: cutShort)
        return (merged, after)
    }

    /// Whether `page` read nothing but noise: the image could be measured
    /// (`TextInk.wasMeasured`) and none of its shapes stand in rows of text (a drawing, blank
    /// paper), and every line was read with a mean word confidence under
    /// `leastRereadConfidence`, the bar a re-read line must clear. Tesseract reads the
    /// ground line of a drawing as "eS TT iL a". An image that could not be measured (too
    /// small, too faint to threshold) keeps its reading, and so do pages with renderings of
    /// Tesseract's own (hOCR, TSV, ALTO), so that they agree with the text.
    static func readsOnlyNoise(_ page: RecognizedPage, ink: TextInk) -> Bool {
        ink.wasMeasured && ink.shapeCount == 0 && page.renderings.isEmpty && !page.lines.isEmpty
            && page.lines.allSatisfy { PageReading.confidence(of: $0) < leastRereadConfidence }
    }

    /// Whether the check applies to a reading made with `mode`: the page and block modes,
    /// not those that read one line, word or character, find no text, or read vertical text.
    public static func applies(to mode: PageSegmentationMode) -> Bool {
        switch mode {
        case .autoWithOSD, .auto, .singleColumn, .singleBlock, .sparseText, .sparseTextWithOSD: true
        case .osdOnly, .autoOnly, .singleBlockVerticalText, .singleLine, .singleWord, .circleWord, .singleCharacter, .rawLine:
            false
        }
    }

    // MARK: - Measuring

    /// The boxes of the page's words that hold visible characters (Tesseract also returns
    /// blank "words" over pictures and margins; they read nothing).
    static func wordBoxes(of page: RecognizedPage) -> [BoundingBox] {
        page.words.filter(\.hasVisibleText).map(\.boundingBox)
    }

    /// For each row of `ink`, whether each of its shapes lies inside one of `words` (its
    /// centre within `coverMargin` x-heights of a box).
    static func coveredShapes(of ink: TextInk, by words: [BoundingBox]) -> [[Bool]] {
        let margin = Int((coverMargin * ink.xHeight).rounded())
        let grown = words.map { $0.expanded(by: margin, margin) }
        return ink.rows.map { row in
            let nearby = grown.filter { $0.intersects(row.box) }
            return row.shapes.map { shape in nearby.contains { $0.contains(x: shape.centerX, y: shape.centerY) } }
        }
    }

    /// The covered share of all text-like shapes; 1 when there are none.
    static func share(_ covered: [[Bool]], of ink: TextInk) -> Double {
        let total = ink.shapeCount
        guard total > 0 else { return 1 }
        return Double(covered.reduce(0) { $0 + $1.count(where: { $0 }) }) / Double(total)
    }

    /// The regions to read again: runs of at least `shortestSkippedRun` uncovered shapes in a
    /// row, joined with the runs of the rows just above and below (so that a lost stanza is
    /// one region), with a margin of an x-height to the sides and 0.8 of one above and below,
    /// in reading order (top to bottom).
    static func skippedRegions(of ink: TextInk, covered: [[Bool]]) -> [BoundingBox] {
        var runs: [BoundingBox] = []
        for (row, flags) in zip(ink.rows, covered) {
            var current: [BoundingBox] = []
            for (shape, isCovered) in zip(row.shapes, flags) {
                if isCovered {
                    if current.count >= shortestSkippedRun { runs.append(.enclosing(current)) }
                    current = []
                } else {
                    current.append(shape)
                }
            }
            if current.count >= shortestSkippedRun { runs.append(.enclosing(current)) }
        }
        let xHeight = ink.xHeight
        let reachX = Int((2 * xHeight).rounded()), reachY = Int((1.6 * xHeight).rounded())
        var regions = runs
        var joined = true
        while joined {
            joined = false
            outer: for first in regions.indices {
                for second in regions.indices where second > first {
                    if regions[first].expanded(by: reachX, reachY).intersects(regions[second]) {
                        regions[first] = regions[first].union(regions[second])
                        regions.remove(at: second)
                        joined = true
                        break outer
                    }
                }
            }
        }
        let padX = Int(xHeight.rounded()), padY = Int((0.8 * xHeight).rounded())
        return regions.map { $0.expanded(by: padX, padY) }.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
    }

    // MARK: - Merging

    /// `page`, read from `turned` (`original` rotated by `angle` degrees clockwise about its
    /// centre, on an enlarged canvas, as `ImagePreprocessor.deskewed` does), with its word and
    /// line boxes carried back into `original`'s pixels: each box's corners are turned back,
    /// and the box around them is kept.
    static func turnedBack(_ page: RecognizedPage, by angle: Double, from turned: PoemImage, to original: PoemImage) -> RecognizedPage {
        let radians = angle * Double.pi / 180
        let cosine = cos(radians), sine = sin(radians)
        let fromX = Double(turned.width) / 2, fromY = Double(turned.height) / 2
        let toX = Double(original.width) / 2, toY = Double(original.height) / 2
        func back(_ box: BoundingBox) -> BoundingBox {
            var left = Double.infinity, top = Double.infinity, right = -Double.infinity, bottom = -Double.infinity
            for (cornerX, cornerY) in [(box.left, box.top), (box.right, box.top), (box.left, box.bottom), (box.right, box.bottom)] {
                let x = Double(cornerX) - fromX, y = Double(cornerY) - fromY
                let backX = x * cosine + y * sine + toX, backY = -x * sine + y * cosine + toY
                left = min(left, backX)
                right = max(right, backX)
                top = min(top, backY)
                bottom = max(bottom, backY)
            }
            return BoundingBox(
                left: Int(left.rounded(.down)), top: Int(top.rounded(.down)), right: Int(right.rounded(.up)),
                bottom: Int(bottom.rounded(.up)))
        }
        var result = page
        for b in result.blocks.indices {
            result.blocks[b].boundingBox = back(result.blocks[b].boundingBox)
            for p in result.blocks[b].paragraphs.indices {
                result.blocks[b].paragraphs[p].boundingBox = back(result.blocks[b].paragraphs[p].boundingBox)
                for l in result.blocks[b].paragraphs[p].lines.indices {
                    result.blocks[b].paragraphs[p].lines[l].boundingBox = back(result.blocks[b].paragraphs[p].lines[l].boundingBox)
                    for w in result.blocks[b].paragraphs[p].lines[l].words.indices {
                        let box = result.blocks[b].paragraphs[p].lines[l].words[w].boundingBox
                        result.blocks[b].paragraphs[p].lines[l].words[w].boundingBox = back(box)
                    }
                }
            }
        }
        return result
    }

    /// The lines of a re-read crop worth keeping, moved into the page's coordinates: with
    /// visible text, a mean word confidence of at least `leastRereadConfidence`, and over at
    /// least two of the skipped shapes (so that a stray mark in the margin is not read).
    static func trustworthyLines(
        of found: RecognizedPage, offsetBy region: BoundingBox, covering skipped: [BoundingBox]
    ) -> [RecognizedLine] {
        found.lines.compactMap { line in
            let words = line.words.filter(\.hasVisibleText).map { word in
                var moved = word
                moved.boundingBox = word.boundingBox.offset(by: region.left, region.top)
                return moved
            }
            guard !words.isEmpty else { return nil }
            let confidence = words.map(\.confidence).reduce(0, +) / Double(words.count)
            let box = BoundingBox.enclosing(words.map(\.boundingBox))
            let over = skipped.count { box.contains(x: $0.centerX, y: $0.centerY) }
            guard confidence >= leastRereadConfidence, over >= 2 else { return nil }
            return RecognizedLine(words: words, boundingBox: box, confidence: line.confidence)
        }
    }

    /// Merges re-read lines into `page`: a line level with one the page has, and near it (the
    /// other half of a line Tesseract read in part), joins that line; the others form a new
    /// block, placed in reading order. Returns how many lines and words were added.
    static func merge(
        _ lines: [RecognizedLine], into page: inout RecognizedPage, region: BoundingBox, xHeight: Double
    ) -> (lines: Int, words: Int) {
        guard !lines.isEmpty else { return (0, 0) }
        let oldWordCount = page.words.count(where: \.hasVisibleText)
        var newLines: [RecognizedLine] = []
        for line in lines {
            if let path = Self.partner(of: line, in: page, xHeight: xHeight) {
                var target = page.blocks[path.block].paragraphs[path.paragraph].lines[path.line]
                target.words = (target.words + line.words).sorted { $0.boundingBox.left < $1.boundingBox.left }
                target.boundingBox = target.boundingBox.union(line.boundingBox)
                page.blocks[path.block].paragraphs[path.paragraph].lines[path.line] = target
                page.blocks[path.block].paragraphs[path.paragraph].boundingBox =
                    page.blocks[path.block].paragraphs[path.paragraph].boundingBox.union(line.boundingBox)
                page.blocks[path.block].boundingBox = page.blocks[path.block].boundingBox.union(line.boundingBox)
            } else {
                newLines.append(line)
            }
        }
        if !newLines.isEmpty {
            newLines.sort { $0.boundingBox.top < $1.boundingBox.top }
            let box = BoundingBox.enclosing(newLines.map(\.boundingBox))
            let block = RecognizedBlock(paragraphs: [RecognizedParagraph(lines: newLines, boundingBox: box)], boundingBox: box)
            page.blocks.insert(block, at: Self.readingPosition(of: box, in: page))
        }
        let added = lines.flatMap(\.words)
        let total = oldWordCount + added.count
        if total > 0 {
            let sum = Double(page.meanConfidence) * Double(oldWordCount) + added.map(\.confidence).reduce(0, +)
            page.meanConfidence = Int((sum / Double(total)).rounded())
        }
        return (lines.count, added.count)
    }

    /// The line of the page that `line` continues: one beside it (less than three x-heights
    /// away to the side, overlapping it by at most one) whose box overlaps it vertically by at
    /// least half the lower one's height.
    static func partner(of line: RecognizedLine, in page: RecognizedPage, xHeight: Double) -> (block: Int, paragraph: Int, line: Int)? {
        let box = line.boundingBox
        for (blockIndex, block) in page.blocks.enumerated() {
            for (paragraphIndex, paragraph) in block.paragraphs.enumerated() {
                for (lineIndex, other) in paragraph.lines.enumerated()
                where other.words.contains(where: \.hasVisibleText) {
                    let otherBox = other.boundingBox
                    let overlap = min(box.bottom, otherBox.bottom) - max(box.top, otherBox.top)
                    let gap = max(box.left - otherBox.right, otherBox.left - box.right)
                    let beside = Double(gap) >= -xHeight && Double(gap) < 3 * xHeight
                    if Double(overlap) >= 0.5 * Double(min(box.height, otherBox.height)), beside {
                        return (blockIndex, paragraphIndex, lineIndex)
                    }
                }
            }
        }
        return nil
    }

    /// Where a new block goes in the page's reading order (Tesseract's order: column by
    /// column, top to bottom): before the first block with text in the same column (sharing
    /// some width) that starts below it; else after the last such block above it; with no
    /// block in its column, before the first block to its right; else at the end.
    static func readingPosition(of box: BoundingBox, in page: RecognizedPage) -> Int {
        let withText = page.blocks.indices.filter { index in
            page.blocks[index].paragraphs.contains { $0.lines.contains { $0.words.contains(where: \.hasVisibleText) } }
        }
        let sameColumn = withText.filter {
            let other = page.blocks[$0].boundingBox
            return min(box.right, other.right) > max(box.left, other.left)
        }
        if let below = sameColumn.first(where: { page.blocks[$0].boundingBox.top > box.top }) { return below }
        if let above = sameColumn.last { return above + 1 }
        if let right = withText.first(where: { page.blocks[$0].boundingBox.left >= box.right }) { return right }
        return page.blocks.count
    }

    /// The page's text rebuilt from its lines, as Tesseract lays it out: one line a line,
    /// a blank line after each paragraph.
    static func text(of page: RecognizedPage) -> String {
        var text = ""
        for block in page.blocks {
            for paragraph in block.paragraphs {
                let lines = paragraph.lines.filter { $0.words.contains(where: \.hasVisibleText) }
                guard !lines.isEmpty else { continue }
                for line in lines { text += line.text + "\n" }
                text += "\n"
            }
        }
        return text
    }
}

extension BoundingBox {
    /// The box moved right by `dx` and down by `dy`.
    func offset(by dx: Int, _ dy: Int) -> BoundingBox {
        BoundingBox(left: left + dx, top: top + dy, right: right + dx, bottom: bottom + dy)
    }
}
