import Foundation
import SnapPoem
import Testing

/// The JSON document as a reader outside snap-poem would decode it: spelled from
/// `Docs/json-schema.md`, not from snap-poem's types, so a renamed key fails here.
private struct ReaderView: Decodable {
    struct Change: Decodable, Equatable { var line: Int; var column: Int; var original: String; var replacement: String }
    struct Box: Decodable, Equatable { var left: Int; var top: Int; var right: Int; var bottom: Int }
    struct Word: Decodable { var text: String; var confidence: Double; var box: Box }
    struct Line: Decodable { var block: Int; var paragraph: Int; var text: String; var confidence: Double; var box: Box; var words: [Word] }
    struct Recognition: Decodable { var meanConfidence: Int; var timedOut: Bool; var lines: [Line] }
    struct Orientation: Decodable, Equatable { var exifValue: Int; var name: String; var applied: Bool }
    struct Preprocessing: Decodable, Equatable { var maxDimension: Int?; var filter: String }
    struct Image: Decodable {
        var format: String; var storedWidth: Int; var storedHeight: Int; var orientation: Orientation
        var recognizedWidth: Int; var recognizedHeight: Int; var preprocessing: Preprocessing
    }
    struct Timings: Decodable, Equatable {
        var decodeSeconds: Double; var preprocessSeconds: Double; var recognizeSeconds: Double
        var personalizeSeconds: Double; var totalSeconds: Double
    }
    struct Generator: Decodable { var name: String; var version: String; var tesseractVersion: String }
    var schemaVersion: Int
    var generator: Generator
    var source: String
    var text: String
    var originalText: String
    var replacements: [Change]
    var recognition: Recognition
    var image: Image
    var timings: Timings
}

/// Every key path in a JSON value, arrays written `[]`: `recognition.lines[].words[].text`.
private func keyPaths(of value: Any, prefix: String = "") -> Set<String> {
    var paths = Set<String>()
    if let object = value as? [String: Any] {
        for (key, child) in object {
            let path = prefix.isEmpty ? key : prefix + "." + key
            paths.insert(path)
            paths.formUnion(keyPaths(of: child, prefix: path))
        }
    } else if let array = value as? [Any] {
        for element in array { paths.formUnion(keyPaths(of: element, prefix: prefix + "[]")) }
    }
    return paths
}

/// The key paths listed in the table of `Docs/json-schema.md`.
private func documentedKeyPaths() throws -> Set<String> {
    let document = try String(contentsOf: Fixtures.root.appendingPathComponent("Docs/json-schema.md"), encoding: .utf8)
    var paths = Set<String>()
    for line in document.split(separator: "\n") where line.hasPrefix("| `") {
        let cell = line.dropFirst(3).prefix { $0 != "`" }
        paths.insert(String(cell))
    }
    return paths
}

@Suite("JSON export: the versioned schema")
struct JSONExporterTests {
    @Test("A hand-built poem exports exactly the documented values")
    func exactValues() throws {
        let data = JSONExporter().export(ExportFixtures.shortPoem)
        let view = try JSONDecoder().decode(ReaderView.self, from: data)
        #expect(view.schemaVersion == 1)
        #expect(view.generator.name == "snap-poem")
        #expect(view.generator.version == Versions.snapPoem)
        #expect(view.generator.tesseractVersion == Versions.tesseract)
        #expect(view.source == "poem.png")
        #expect(view.text == ExportFixtures.shortPoem.text)
        #expect(
            view.originalText
                == "Lenore\n\nSee! on yon bier low lies thy love, Lenore!\nCome! let the rite be read\n\nThe sweet Lenore hath gone before\n"
        )
        #expect(
            view.replacements == [
                .init(line: 1, column: 1, original: "Lenore", replacement: "Alex"),
                .init(line: 3, column: 37, original: "Lenore", replacement: "Alex"),
                .init(line: 6, column: 11, original: "Lenore", replacement: "Alex"),
            ])
        #expect(view.recognition.meanConfidence == 92)
        #expect(view.recognition.timedOut == false)
        #expect(
            view.recognition.lines.map(\.text) == [
                "Lenore", "See! on yon bier low lies thy love, Lenore!", "Come! let the rite be read", "The sweet Lenore hath gone before",
            ])
        #expect(view.recognition.lines.map(\.paragraph) == [1, 2, 2, 3])
        #expect(view.recognition.lines.allSatisfy { $0.block == 1 && $0.confidence == 91.5 })
        #expect(view.recognition.lines[1].words.prefix(3).map(\.confidence) == [90.13, 90.25, 90.38])
        #expect(view.recognition.lines[1].words[0].box == .init(left: 10, top: 110, right: 58, bottom: 140))
        #expect(view.image.format == "jpeg")
        #expect(view.image.orientation == .init(exifValue: 6, name: "right", applied: true))
        #expect(view.image.preprocessing == .init(maxDimension: 4000, filter: "black-and-white"))
        #expect(view.image.recognizedWidth == 640)
        #expect(
            view.timings
                == .init(
                    decodeSeconds: 0.12, preprocessSeconds: 0.0375, recognizeSeconds: 2.461263, personalizeSeconds: 0.000005,
                    totalSeconds: 2.618768))
    }

    @Test("The keys written are exactly the keys documented in Docs/json-schema.md")
    func documentedKeys() async throws {
        var poem = try await ExportFixtures.lenore.value
        // Lenore.png is read whole at once; a region of each kind shows the keys inside them.
        let region = BoundingBox(left: 10, top: 20, right: 300, bottom: 80)
        var coverage = try #require(poem.coverage)
        coverage.rereadRegions = [RereadRegion(box: region, lineCount: 1, wordCount: 5)]
        coverage.unreadRegions = [region]
        poem.coverage = coverage
        // Read by one call of Tesseract (renderings): a line-by-line report shows its keys.
        poem.reading = ReadingReport(
            engines: 2, lineCount: 4, language: .english, frenchLines: 0, lineLanguageRereads: 0, layoutMilliseconds: 12)
        poem.reading?.stoppedEarly = .verticalLines
        poem.reading?.lineStartTurn = 270
        poem.reading?.layoutReduction = 1.42
        poem.plainReading = PlainReadingReport(
            reason: "the image was changed", prepared: ReadingQuality(sureLetters: 300, doubtfulCharacters: 4),
            plain: ReadingQuality(sureLetters: 280, doubtfulCharacters: 9), kept: .prepared, milliseconds: 410)
        var report = poem.preprocessingReport
        report.curvature = PageCurvature(lineCount: 4, minimumCurvature: -90, maximumCurvature: -60, applied: true)
        report.keystone = KeystoneCorrection(
            corners: [ImagePoint(x: 10, y: 10), ImagePoint(x: 90, y: 20), ImagePoint(x: 90, y: 80), ImagePoint(x: 10, y: 90)],
            width: 80, height: 80, edgeRatio: 1.33)
        report.liftedWhitePoint = 170
        poem.preprocessingReport = report
        let object = try JSONSerialization.jsonObject(with: JSONExporter().export(poem))
        let written = keyPaths(of: object)
        let documented = try documentedKeyPaths()
        #expect(written.subtracting(documented).isEmpty, "undocumented: \(written.subtracting(documented).sorted())")
        // The keys of a file of several pages are checked by documentedPageKeys.
        let pageKeys = documented.filter { $0.hasPrefix("page") || $0.hasSuffix("[].page") }
        #expect(
            documented.subtracting(written).subtracting(pageKeys).isEmpty,
            "documented but not written: \(documented.subtracting(written).subtracting(pageKeys).sorted())")
    }

    @Test("A file of several pages writes exactly the documented keys, its pages' as the top level's")
    func documentedPageKeys() async throws {
        let poem = try await ExportFixtures.lenore.value
        let document = ScannedDocument(
            source: "booklet.tif", format: .tiff,
            pages: [
                ScannedPage(number: 1, result: .success(poem)), ScannedPage(number: 2, result: .success(poem)),
                ScannedPage(number: 3, result: .failure(.corruptImage(path: "booklet.tif", format: "TIFF"))),
            ])
        let object = try JSONSerialization.jsonObject(with: try #require(JSONExporter().export(document)))
        let documented = try documentedKeyPaths()
        // A page's keys below its own (pages[].recognition.lines[]...) are the top level's.
        let written = Set(
            keyPaths(of: object).map { path -> String in
                guard path.hasPrefix("pages[]."), case let rest = String(path.dropFirst(8)), rest.contains("."),
                    documented.contains(rest)
                else { return path }
                return "pages[]." + rest.prefix { $0 != "." && $0 != "[" }
            })
        #expect(written.subtracting(documented).isEmpty, "undocumented: \(written.subtracting(documented).sorted())")
        for key in [
            "pageCount", "pages", "pages[].page", "pages[].error", "pages[].text", "replacements[].page", "recognition.lines[].page",
        ] {
            #expect(written.contains(key), "\(key)")
        }
        let decoded = try JSONDecoder().decode(JSONPoemDocument.self, from: try #require(JSONExporter().export(document)))
        #expect(decoded.text == poem.text + "\u{0C}\n" + poem.text)
        #expect(decoded.replacements.count == 2 * poem.personalized.changes.count)
        #expect(decoded.pages?[2].error == "booklet.tif: the TIFF data is damaged or truncated and could not be decoded")
    }

    @Test("Kept size: maxDimension is an explicit null, not a missing key")
    func explicitNull() throws {
        var poem = ExportFixtures.shortPoem
        poem.preprocessing = PreprocessingOptions(scaling: .original, filter: .none)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONExporter().export(poem)) as? [String: Any])
        let image = try #require(object["image"] as? [String: Any])
        let preprocessing = try #require(image["preprocessing"] as? [String: Any])
        #expect(
            preprocessing.keys.sorted() == [
                "deskewAngle", "filter", "flattened", "inverted", "maxDimension", "notes", "rotation", "scaleFactor", "scaling",
                "skew", "surroundCleared",
            ])
        #expect(preprocessing["maxDimension"] is NSNull)
        #expect(preprocessing["skew"] is NSNull)
        #expect(preprocessing["scaling"] as? String == "none")
        #expect(preprocessing["filter"] as? String == "none")
    }

    @Test("A time-limited scan says so", arguments: [true, false])
    func timedOut(flag: Bool) throws {
        let poem = ExportFixtures.poem([["a line"]], timedOut: flag)
        #expect(try JSONDecoder().decode(ReaderView.self, from: JSONExporter().export(poem)).recognition.timedOut == flag)
    }

    @Test("Pretty for one poem, one line per poem for JSON Lines; keys sorted either way")
    func layouts() throws {
        let pretty = String(decoding: JSONExporter(layout: .pretty).export(ExportFixtures.shortPoem), as: UTF8.self)
        let line = String(decoding: JSONExporter(layout: .jsonLines).export(ExportFixtures.shortPoem), as: UTF8.self)
        #expect(pretty.split(separator: "\n").count > 20)
        #expect(line.split(separator: "\n").count == 1)
        #expect(line.hasSuffix("}\n") && pretty.hasSuffix("}\n"))
        #expect(line.hasPrefix("{\"generator\":{"))
        #expect(try JSONDecoder().decode(ReaderView.self, from: Data(line.utf8)).text == ExportFixtures.shortPoem.text)
    }

    @Test("Lenore.png: both texts, four replacements with positions, every line and word")
    func lenore() async throws {
        let poem = try await ExportFixtures.lenore.value
        let document = try JSONDecoder().decode(JSONPoemDocument.self, from: JSONExporter().export(poem))
        let view = try JSONDecoder().decode(ReaderView.self, from: JSONExporter().export(poem))
        #expect(document == JSONPoemDocument(poem))
        #expect(view.text.hasPrefix("Alex\n\n"))
        #expect(view.originalText.hasPrefix("Lenore\n\n"))
        #expect(view.replacements.map(\.line) == [1, 5, 6, 19])
        #expect(view.replacements.map(\.original) == ["Lenore", "Guy De Vere", "Lenore", "Lenore"])
        let truth = try Fixtures.groundTruth(for: "Lenore.png")
        #expect(view.recognition.lines.count == truth.split(separator: "\n").count)
        let words = view.recognition.lines.flatMap(\.words)
        #expect(words.count == poem.page.words.count)
        #expect(words.allSatisfy { (0...100).contains($0.confidence) && $0.box.right > $0.box.left && $0.box.bottom > $0.box.top })
        #expect(view.image.format == "png")
        #expect(view.image.storedWidth == 1731 && view.image.storedHeight == 2622)
        #expect(view.image.orientation.applied == false)
        #expect(view.timings.recognizeSeconds > 0)
        let stages =
            view.timings.decodeSeconds + view.timings.preprocessSeconds + view.timings.recognizeSeconds + view.timings.personalizeSeconds
            + (document.timings.coverageCheckSeconds ?? .nan)
        #expect(abs(view.timings.totalSeconds - stages) < 0.00001)
        #expect(view.recognition.timedOut == false)
    }
}
