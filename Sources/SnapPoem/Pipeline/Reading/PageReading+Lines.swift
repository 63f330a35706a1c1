import Foundation

/// Reading lines: the shared steps of `PageReading`'s passes.
extension PageReading {
    /// The confidence under which a word makes its line doubtful (`hasDoubtfulWord`): such a
    /// line is read again from a copy enlarged by `rereadEnlargement`, and the reading with
    /// the higher mean word confidence is kept.
    ///
    /// Chosen on the 32 held-out images (BENCHMARKS.md): 9 of them have one line with a word
    /// under 50; reading those again ×1.5 corrected four ("Ta child" and "la child" → "I a
    /// child" on `clean-lamb` and `turned-90-lamb`, "Lun" → "L'un", "thro’" → "thro'") and
    /// made none worse, mean CER 0.092 % → 0.063 %. At 60 or 70 more lines are read again
    /// and a low-resolution page loses a letter; at 40 one of the four is missed; ×2 instead
    /// of ×1.5 corrects fewer and makes a turned page worse.
    static let doubtfulWordConfidence = 50.0
    /// How much larger the copy is from which a doubtful line is read again.
    static let rereadEnlargement = 1.5

    /// Whether `line` holds a word with visible text read with less than
    /// `doubtfulWordConfidence`.
    static func hasDoubtfulWord(_ line: RecognizedLine) -> Bool {
        line.words.contains { $0.confidence < doubtfulWordConfidence && $0.hasVisibleText }
    }

    /// Reads the lines `indices` of `boxes` again, each from a copy of its rectangle
    /// (`TesseractEngine.lineRectangle`) enlarged by `rereadEnlargement`, with the engines
    /// `engines` gives for it (shared out so that two lines are read at once), the word boxes
    /// brought back to `image`'s pixels. Grey images only: nothing is read for another depth,
    /// nor for a line whose copy would be longer than `PreprocessingOptions.tesseractMaxSide`.
    ///
    /// - Throws: `SnapPoemError.cancelled`, `.outOfMemory`, `.recognitionFailed`.
    static func rereadEnlarged(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, engines: (Int) -> [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        try await rereadScaled(
            indices, boxes: boxes, image: image, engines: engines, factor: { _ in rereadEnlargement }, options: options,
            deadline: deadline, name: name)
    }

    /// `rereadEnlarged`, with each line's copy scaled by `factor(index)` (below 1 shrinks).
    static func rereadScaled(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, engines: (Int) -> [Recognizer], factor: (Int) -> Double,
        options: RecognitionOptions, deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        guard image.bitsPerPixel == 8 else { return ([], false) }
        var jobs: [(index: Int, engine: Recognizer, crop: PoemImage, rectangle: BoundingBox, box: BoundingBox, factor: Double)] = []
        var perEngine: [ObjectIdentifier: Int] = [:]
        for index in indices {
            let factor = factor(index)
            guard factor.isFinite, factor > 0, let rectangle = TesseractEngine.lineRectangle(boxes[index], in: image) else { continue }
            let width = Int((Double(rectangle.width) * factor).rounded()), height = Int((Double(rectangle.height) * factor).rounded())
            // A line that would come out longer than Tesseract's coordinates reach (a page
            // near 32767 px wide) keeps its first reading.
            guard max(width, height) <= PreprocessingOptions.tesseractMaxSide, let crop = try image.cropped(to: rectangle) else {
                continue
            }
            let enlarged = try ImagePreprocessor.resized(crop, width: width, height: height)
            let inner = boxes[index].offsetBy(dx: -rectangle.left, dy: -rectangle.top).scaled(by: factor)
            // The least busy of the line's engines, so that two lines are read at once.
            guard
                let engine = engines(index).min(by: {
                    perEngine[ObjectIdentifier($0), default: 0] < perEngine[ObjectIdentifier($1), default: 0]
                })
            else { continue }
            perEngine[ObjectIdentifier(engine), default: 0] += 1
            jobs.append((index, engine, enlarged, rectangle, inner, factor))
        }
        do {
            return try await withThrowingTaskGroup(of: (lines: [(Int, RecognizedLine)], timedOut: Bool).self) { group in
                for engine in Set(jobs.map { ObjectIdentifier($0.engine) }) {
                    let mine = jobs.filter { ObjectIdentifier($0.engine) == engine }
                    group.addTask {
                        var read: [(Int, RecognizedLine)] = []
                        for job in mine {
                            let (lines, stopped) = try await job.engine.recognizeLines(
                                job.crop, boxes: [job.box], options: options, deadline: deadline, name: name)
                            if stopped { return (read, true) }
                            guard var line = lines.first else { continue }
                            func back(_ box: BoundingBox) -> BoundingBox {
                                box.scaled(by: 1 / job.factor).offsetBy(dx: job.rectangle.left, dy: job.rectangle.top)
                            }
                            line.words = line.words.map {
                                RecognizedWord(
                                    text: $0.text, confidence: $0.confidence, boundingBox: back($0.boundingBox),
                                    isFromDictionary: $0.isFromDictionary)
                            }
                            line.boundingBox = back(line.boundingBox)
                            read.append((job.index, line))
                        }
                        return (read, false)
                    }
                }
                var all: [(Int, RecognizedLine)] = []
                var timedOut = false
                for try await part in group {
                    all += part.lines
                    timedOut = timedOut || part.timedOut
                }
                return (all, timedOut)
            }
        } catch let error as SnapPoemError {
            throw error
        } catch {
            throw .cancelled(path: name)
        }
    }

    /// The text of `lines`, one a line.
    static func text(of lines: [RecognizedLine]) -> String { lines.map(\.text).joined(separator: "\n") }

    /// Whether the first lines read give no text, or a mean word confidence under `threshold`
    /// (as `RecognizedPage.meanConfidence` rounds it): a page turned upside down.
    static func startsBadly(_ lines: [RecognizedLine], below threshold: Int) -> Bool {
        let words = lines.flatMap(\.words).filter(\.hasVisibleText)
        guard !words.isEmpty else { return true }
        return Int((words.map(\.confidence).reduce(0, +) / Double(words.count)).rounded()) < threshold
    }

    /// Whether `lines`, the first of a page, settle it as French on their own: they start
    /// well (no `startsBadly` below `doubtfulConfidence`, when given) and hold
    /// `plainlyFrenchEvidence`.
    static func isPlainlyFrench(_ lines: [RecognizedLine], doubtfulConfidence: Int?) -> Bool {
        if let doubtfulConfidence, startsBadly(lines, below: doubtfulConfidence) { return false }
        return PoemLanguage.judge(text(of: lines), leastEvidence: plainlyFrenchEvidence) == .french
    }

    /// Reads the lines of `queue` with `engines` at once, the first from the top, the second
    /// from the bottom. Returns whether the deadline stopped the reading.
    static func read(
        _ queue: LineQueue, image: PoemImage, with engines: [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> Bool {
        do {
            return try await withThrowingTaskGroup(of: Bool.self) { group in
                for (number, engine) in engines.prefix(2).enumerated() {
                    group.addTask {
                        try await engine.recognizeLines(
                            image, from: queue, end: number == 0 ? .top : .bottom, options: options, deadline: deadline, name: name)
                    }
                }
                var timedOut = false
                for try await stopped in group { timedOut = timedOut || stopped }
                return timedOut
            }
        } catch let error as SnapPoemError {
            throw error
        } catch {
            throw .cancelled(path: name)
        }
    }

    /// The mean word confidence under which a line read by the French model alone is read
    /// by the configured languages too (`eng+fra`), keeping the surer of the two readings.
    static let doubtfulFrenchConfidence = 80.0

    /// A line's mean word confidence over words with visible text; 0 for none.
    static func confidence(of line: RecognizedLine) -> Double {
        let words = line.words.filter(\.hasVisibleText)
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// Reads the lines `indices` of `boxes` with `engines` at once, from a queue of their own.
    static func split(
        _ indices: [Int], boxes: [BoundingBox], image: PoemImage, with engines: [Recognizer], options: RecognitionOptions,
        deadline: ContinuousClock.Instant?, name: String
    ) async throws(SnapPoemError) -> (lines: [(Int, RecognizedLine)], timedOut: Bool) {
        guard !indices.isEmpty else { return ([], false) }
        let queue = LineQueue(boxes: indices.map { boxes[$0] }, leading: 0) { _ in true }
        let timedOut = try await Self.read(queue, image: image, with: engines, options: options, deadline: deadline, name: name)
        return (zip(indices, queue.lines).compactMap { index, line in line.map { (index, $0) } }, timedOut)
    }
}
