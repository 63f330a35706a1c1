// snap-poem-bench quality: how well each image pipeline reads the sample photos.
//
//   snap-poem-bench quality [IMAGE...]             plain tesseract vs tutorial vs snap-poem
//   snap-poem-bench quality --variants [IMAGE...]  the same for every variant in `qualityVariants`
//   snap-poem-bench quality --analyze [IMAGE...]   what the measurement and OSD see, no OCR
//   snap-poem-bench quality --orientation [IMAGE...]  OSD on each image turned 0/90/180/270°
//
// Without images it runs the categorised sample set in `qualitySamples`. CER is the edit
// distance over characters (NFC, whitespace runs folded to one space) divided by the
// ground truth's length, as in SampleImages/cer.py and the tests.
import Foundation
import SnapPoem

/// One sample image of the quality benchmark and the category it stands for.
struct QualitySample {
    let file: String
    let category: String
    /// Clean scans are the control group: snap-poem must not do worse there.
    var isPhotoLike: Bool { category != "clean" }
}

/// The sample set, in the categories of issue 6 (and issue 9's "tilted inside a page edge"),
/// paths relative to SampleImages/.
let qualitySamples: [QualitySample] = [
    QualitySample(file: "Lenore.png", category: "clean"),
    QualitySample(file: "chanson-d-automne.png", category: "clean"),
    QualitySample(file: "photo-clean.png", category: "clean"),
    QualitySample(file: "photo-rotated-3deg.jpg", category: "rotated 2–5°"),
    QualitySample(file: "photo-rotated-5deg.jpg", category: "rotated 2–5°"),
    QualitySample(file: "photo-page-edge-2.5deg.jpg", category: "tilted inside a page edge"),
    QualitySample(file: "photo-page-edge-3.5deg.jpg", category: "tilted inside a page edge"),
    QualitySample(file: "photo-rotated-90.png", category: "rotated 90/180/270°"),
    QualitySample(file: "photo-rotated-180.png", category: "rotated 90/180/270°"),
    QualitySample(file: "photo-rotated-270.png", category: "rotated 90/180/270°"),
    QualitySample(file: "photo-exif-rotated.jpg", category: "EXIF-rotated"),
    QualitySample(file: "photo-blurred.jpg", category: "blurred"),
    QualitySample(file: "photo-low-resolution.png", category: "low resolution"),
    QualitySample(file: "photo-phone-size.jpg", category: "phone-size"),
    QualitySample(file: "photo-keystone.jpg", category: "photographed at an angle"),
    QualitySample(file: "photo-screenshot.png", category: "huge text"),
    QualitySample(file: "photo-uneven-light.jpg", category: "uneven light/shadow"),
    QualitySample(file: "photo-vignette-shadow.jpg", category: "uneven light/shadow"),
    QualitySample(file: "photo-coloured.jpg", category: "coloured paper/ink"),
    QualitySample(file: "photo-inverted.png", category: "light on dark"),
    QualitySample(file: "photo-inverted-noisy.jpg", category: "light on dark"),
    QualitySample(file: "photo-jpeg-artefacts.jpg", category: "JPEG artefacts"),
    QualitySample(file: "photo-low-contrast.png", category: "low contrast"),
]

/// Alternatives measured by `--variants`, to choose the defaults by measurement.
let qualityVariants: [(name: String, options: PreprocessingOptions)] = {
    let standard = PreprocessingOptions()
    func changed(_ body: (inout PreprocessingOptions) -> Void) -> PreprocessingOptions {
        var options = standard
        body(&options)
        return options
    }
    return [
        ("default", standard),
        ("filter none", changed { $0.filter = .none }),
        ("filter black-and-white", changed { $0.filter = .blackAndWhite }),
        ("filter adaptive", changed { $0.filter = .adaptive }),
        ("scale original", changed { $0.scaling = .original }),
        ("scale max 4000", changed { $0.scaling = .maxDimension(4000) }),
        ("no orientation", changed { $0.detectsOrientation = false }),
        ("no deskew", changed { $0.deskews = false }),
        ("no inversion", changed { $0.invertsLightText = false }),
        ("no surround clearing", changed { $0.clearsSurround = false }),
        ("minimal (grey only)", .minimal),
    ]
}()

/// The entry point of `snap-poem-bench quality`.
func quality(arguments: [String]) async throws {
    var images = arguments.filter { !$0.hasPrefix("--") }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let sampleFolder = root.appendingPathComponent("SampleImages")
    let tessdata = root.appendingPathComponent("tessdata").path
    var samples: [QualitySample]
    if images.isEmpty {
        samples = qualitySamples.filter { FileManager.default.fileExists(atPath: sampleFolder.appendingPathComponent($0.file).path) }
        images = samples.map { sampleFolder.appendingPathComponent($0.file).path }
    } else {
        samples = images.map { path in
            let name = (path as NSString).lastPathComponent
            return qualitySamples.first { $0.file == name } ?? QualitySample(file: name, category: "other")
        }
    }
    if arguments.contains("--orientation") {
        try await orientationEvidence(images: images)
    } else if arguments.contains("--analyze") {
        try await analyze(images: images)
    } else if arguments.contains("--variants") {
        try await compareVariants(samples: samples, images: images)
    } else {
        try await compareBaselines(samples: samples, images: images, tessdata: tessdata)
    }
}

/// One pipeline's result on one image.
private struct QualityResult {
    var cer: Double
    var preprocess: Double = 0
    var recognize: Double = 0
}

/// Plain tesseract, the tutorial pipeline and snap-poem's default, side by side.
private func compareBaselines(samples: [QualitySample], images: [String], tessdata: String) async throws {
    // The original app had no coverage check either.
    var tutorialConfiguration = ScanConfiguration(preprocessing: .tutorial)
    tutorialConfiguration.checksTextCoverage = false
    let tutorial = try await PoemScanner(configuration: tutorialConfiguration)
    let standard = try await PoemScanner()
    var rows:
        [(
            sample: QualitySample, plain: QualityResult, tutorial: QualityResult, ours: QualityResult, report: PreprocessingReport,
            coverage: TextCoverage?
        )] = []
    for (sample, path) in zip(samples, images) {
        let truth = try groundTruth(for: path)
        let (plainText, plainTime) = try runPlainTesseract(path, tessdata: tessdata)
        let plain = QualityResult(cer: characterErrorRate(plainText, truth: truth), recognize: plainTime)
        let tutorialPoem = try await tutorial.scan(fileAt: path)
        let ourPoem = try await standard.scan(fileAt: path)
        rows.append(
            (
                sample, plain,
                QualityResult(
                    cer: characterErrorRate(tutorialPoem.recognizedText, truth: truth),
                    preprocess: milliseconds(tutorialPoem.timings.preprocess), recognize: milliseconds(tutorialPoem.timings.recognize)),
                QualityResult(
                    cer: characterErrorRate(ourPoem.recognizedText, truth: truth),
                    preprocess: milliseconds(ourPoem.timings.preprocess), recognize: milliseconds(ourPoem.timings.recognize)),
                ourPoem.preprocessingReport, ourPoem.coverage
            ))
        FileHandle.standardError.write(Data("  \(sample.file): done\n".utf8))
    }

    print(
        "| image | category | plain tesseract | tutorial (640 px + b&w) | snap-poem default | what snap-poem did | preprocess ms | recognise ms |"
    )
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |")
    for row in rows {
        print(
            "| \(row.sample.file) | \(row.sample.category) | \(percent(row.plain.cer)) | \(percent(row.tutorial.cer)) | \(percent(row.ours.cer)) | \(describe(row.report, coverage: row.coverage)) | \(whole(row.ours.preprocess)) | \(whole(row.ours.recognize)) |"
        )
    }
    print("")
    print("Mean CER per category:")
    print("")
    print("| category | images | plain tesseract | tutorial | snap-poem |")
    print("| --- | ---: | ---: | ---: | ---: |")
    var categories: [String] = []
    for row in rows where !categories.contains(row.sample.category) { categories.append(row.sample.category) }
    for category in categories {
        let group = rows.filter { $0.sample.category == category }
        print(
            "| \(category) | \(group.count) | \(percent(mean(group.map(\.plain.cer)))) | \(percent(mean(group.map(\.tutorial.cer)))) | \(percent(mean(group.map(\.ours.cer)))) |"
        )
    }
    let photos = rows.filter(\.sample.isPhotoLike)
    let clean = rows.filter { !$0.sample.isPhotoLike }
    print(
        "| **all photo-like** | \(photos.count) | \(percent(mean(photos.map(\.plain.cer)))) | \(percent(mean(photos.map(\.tutorial.cer)))) | \(percent(mean(photos.map(\.ours.cer)))) |"
    )
    print("")
    let ratio = mean(photos.map(\.ours.cer)) / max(1e-9, mean(photos.map(\.plain.cer)))
    print(
        "Targets: snap-poem's mean photo CER ÷ plain tesseract's = \(String(format: "%.3f", ratio)) (target ≤ 0.25); "
            + "clean images where snap-poem is worse than plain: \(clean.filter { $0.ours.cer > $0.plain.cer + 1e-9 }.map(\.sample.file)) (target: none); "
            + "preprocessing ÷ recognition time = \(String(format: "%.1f", 100 * rows.map(\.ours.preprocess).reduce(0, +) / max(1, rows.map(\.ours.recognize).reduce(0, +)))) % (target ≤ 15 %; preprocessing includes orientation detection)."
    )
}

/// Every variant in `qualityVariants`, mean CER per category.
private func compareVariants(samples: [QualitySample], images: [String]) async throws {
    var categories: [String] = []
    for sample in samples where !categories.contains(sample.category) { categories.append(sample.category) }
    print("| variant | " + categories.joined(separator: " | ") + " | photo mean | clean mean | recognise s | prep ÷ recog |")
    print("| --- |" + String(repeating: " ---: |", count: categories.count + 4))
    for (name, options) in qualityVariants {
        let scanner = try await PoemScanner(configuration: ScanConfiguration(preprocessing: options))
        var cers: [String: [Double]] = [:]
        var preprocess = 0.0, recognize = 0.0
        for (sample, path) in zip(samples, images) {
            let poem = try await scanner.scan(fileAt: path)
            cers[sample.category, default: []].append(characterErrorRate(poem.recognizedText, truth: try groundTruth(for: path)))
            preprocess += milliseconds(poem.timings.preprocess)
            recognize += milliseconds(poem.timings.recognize)
        }
        let photoMean = mean(categories.filter { $0 != "clean" }.flatMap { cers[$0] ?? [] })
        let cleanMean = mean(cers["clean"] ?? [])
        let cells = categories.map { percent(mean(cers[$0] ?? [])) }
        print(
            "| \(name) | " + cells.joined(separator: " | ")
                + " | \(percent(photoMean)) | \(percent(cleanMean)) | \(String(format: "%.1f", recognize / 1000)) | \(String(format: "%.0f %%", 100 * preprocess / max(1, recognize))) |"
        )
        FileHandle.standardError.write(Data("  variant \(name): done\n".utf8))
    }
}

/// What the measurement and orientation detection report for each image, without OCR.
private func analyze(images: [String]) async throws {
    let detector = try OrientationDetector()
    print("| image | size | polarity | unevenness | x-height | letters | scale | skew (conf) | OSD turn (conf) | output | prep ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |")
    for path in images {
        let (image, _) = try ImageDecoder.decode(fileAt: path)
        let start = ContinuousClock.now
        let prepared = try ImagePreprocessor.process(image, options: PreprocessingOptions())
        let elapsed = milliseconds(ContinuousClock.now - start)
        let stage = try ImagePreprocessor.process(image, options: PreprocessingOptions(deskews: false))
        let osdStart = ContinuousClock.now
        let turn = try await detector.detect(stage.image)
        let osdTime = milliseconds(ContinuousClock.now - osdStart)
        let report = prepared.report
        let analysis = report.analysis
        print(
            "| \((path as NSString).lastPathComponent) | \(image.width)×\(image.height) | \(String(format: "%.2f", analysis?.polarity ?? 0)) | \(String(format: "%.2f", analysis?.unevenness ?? 0)) | \(analysis?.xHeight.map { String(format: "%.1f", $0) } ?? "–") | \(analysis?.letterCount ?? 0) | \(String(format: "%.2f", report.scaleFactor)) | \(report.skew.map { String(format: "%.2f° (%.1f)", $0.angle, $0.confidence) } ?? "–") | \(turn.map { "\($0.rotation)° (\(String(format: "%.1f", $0.confidence)), \(whole(osdTime)) ms)" } ?? "none (\(whole(osdTime)) ms)") | \(report.outputWidth)×\(report.outputHeight) | \(whole(elapsed)) |"
        )
    }
}

/// Orientation detection on every image turned by 0°, 90°, 180° and 270°: the evidence for
/// `OrientationDetector.minimumConfidence`. The images must be upright.
private func orientationEvidence(images: [String]) async throws {
    let detector = try OrientationDetector()
    var right: [Double] = [], wrong: [Double] = [], missing = 0, times: [Double] = []
    print("| image | 0° | 90° | 180° | 270° |")
    print("| --- | --- | --- | --- | --- |")
    for path in images {
        let (image, _) = try ImageDecoder.decode(fileAt: path)
        var options = PreprocessingOptions()
        options.deskews = false
        let upright = try ImagePreprocessor.process(image, options: options).image
        var cells: [String] = []
        for turn in [0, 90, 180, 270] {
            let turned = try ImagePreprocessor.rotated(upright, clockwiseDegrees: turn)
            let start = ContinuousClock.now
            let found = try await detector.detect(turned)
            times.append(milliseconds(ContinuousClock.now - start))
            guard let found else {
                missing += 1
                cells.append("none")
                continue
            }
            let correct = (found.rotation + turn) % 360 == 0
            if correct { right.append(found.confidence) } else { wrong.append(found.confidence) }
            cells.append("\(found.rotation)° \(String(format: "%.1f", found.confidence))\(correct ? "" : " ✗")")
        }
        print("| \((path as NSString).lastPathComponent) | " + cells.joined(separator: " | ") + " |")
    }
    print("")
    print(
        "Right answers: \(right.count), confidence \(String(format: "%.1f", right.min() ?? .nan))–\(String(format: "%.1f", right.max() ?? .nan)); "
            + "wrong answers: \(wrong.count), confidence up to \(String(format: "%.1f", wrong.max() ?? .nan)); no answer: \(missing). "
            + "Median detection time \(whole(times.sorted()[times.count / 2])) ms.")
}

/// Runs `tesseract FILE - -l eng+fra` with one OpenMP thread; returns its text and time in ms.
private func runPlainTesseract(_ path: String, tessdata: String) throws -> (String, Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/tesseract")
    process.arguments = [path, "-", "-l", "eng+fra", "--tessdata-dir", tessdata]
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), milliseconds(ContinuousClock.now - start))
}

/// The ground truth of a sample: same name with `.txt`, or the folder's shared text.
private func groundTruth(for path: String) throws -> String {
    let url = URL(fileURLWithPath: path)
    let own = url.deletingPathExtension().appendingPathExtension("txt")
    if FileManager.default.fileExists(atPath: own.path) { return try String(contentsOf: own, encoding: .utf8) }
    let folder = url.deletingLastPathComponent()
    for shared in ["stanza.txt", "orientation.txt"] {
        let candidate = folder.appendingPathComponent(shared)
        if FileManager.default.fileExists(atPath: candidate.path) { return try String(contentsOf: candidate, encoding: .utf8) }
    }
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: own.path])
}

/// Character error rate, as in the tests and SampleImages/cer.py.
func characterErrorRate(_ recognized: String, truth: String) -> Double {
    func normalized(_ text: String) -> [Unicode.Scalar] {
        Array(text.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ").unicodeScalars)
    }
    let a = normalized(recognized), b = normalized(truth)
    guard !b.isEmpty else { return a.isEmpty ? 0 : 1 }
    guard !a.isEmpty else { return 1 }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return Double(previous[b.count]) / Double(b.count)
}

/// A short account of a preprocessing report, for the table.
private func describe(_ report: PreprocessingReport, coverage: TextCoverage? = nil) -> String {
    var steps: [String] = []
    if report.clearedSurroundShare > 0 { steps.append("table cleared") }
    if report.scaleFactor != 1 { steps.append(String(format: "scale ×%.2f", report.scaleFactor)) }
    if let keystone = report.keystone { steps.append(String(format: "keystone (edges %.2f)", keystone.edgeRatio)) }
    if report.inverted { steps.append("inverted") }
    if report.rotation != 0 { steps.append("turned \(report.rotation)°") }
    if report.deskewAngle != 0 { steps.append(String(format: "deskew %.1f°", report.deskewAngle)) }
    if report.flattened { steps.append("flattened") }
    if report.filter == .adaptive || report.filter == .blackAndWhite { steps.append(report.filter.rawValue) }
    if let lines = coverage?.recoveredLineCount, lines > 0 { steps.append("re-read \(lines) lines") }
    if steps.isEmpty { steps.append("nothing") }
    return steps.joined(separator: ", ")
}

private func mean(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
}

private func percent(_ value: Double) -> String { value.isNaN ? "–" : String(format: "%.2f %%", 100 * value) }

private func whole(_ value: Double) -> String { String(format: "%.0f", value) }
