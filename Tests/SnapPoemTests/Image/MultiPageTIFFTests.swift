import Foundation
import Testing

@testable import SnapPoem

@Suite("Every page of a multi-page TIFF, in page order, within bounds decided before decoding")
struct MultiPageTIFFTests {
    static let threePages = Fixtures.sample("formats/poems-3page.tif")

    /// A little-endian classic TIFF of `sizes.count` directories, each declaring one page of
    /// the given size (ImageWidth, ImageLength) and nothing else: enough for the structure.
    static func declaredPages(_ sizes: [(Int, Int)]) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
        for (index, size) in sizes.enumerated() {
            let next = index == sizes.count - 1 ? 0 : bytes.count + 30
            bytes += u16(2) + u16(256) + u16(4) + u32(1) + u32(size.0) + u16(257) + u16(4) + u32(1) + u32(size.1) + u32(next)
        }
        return Data(bytes)
    }

    /// `data` with page `page`'s (from 0) StripOffsets pointing past the end of the file.
    static func damagingPage(_ page: Int, of data: Data) throws -> Data {
        var bytes = [UInt8](data)
        #expect(bytes[0] == 0x49)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var directory = u32(4)
        for _ in 0..<page { directory = u32(directory + 2 + u16(directory) * 12) }
        for index in 0..<u16(directory) where u16(directory + 2 + index * 12) == 273 {
            let value = directory + 2 + index * 12 + 8
            for offset in 0..<4 { bytes[value + offset] = 0xF0 }
            return Data(bytes)
        }
        throw CancellationError()
    }

    @Test("The three-page TIFF reads all three poems in page order, CER ≤ 1 % against the three texts joined")
    func threePoems() async throws {
        let scanner = try await SharedScanner.get()
        let seen = Locked<[DocumentProgress]>([])
        let document = try await scanner.scanDocument(fileAt: Self.threePages) { progress in
            seen.withLock { $0.append(progress) }
        }
        #expect(document.pageCount == 3 && document.isComplete && document.format == .tiff)
        #expect(document.pages.map(\.number) == [1, 2, 3])
        for page in document.pages {
            let poem = try #require(page.poem)
            let truth = try String(contentsOfFile: Fixtures.sample("formats/poems-3page-\(page.number).txt"), encoding: .utf8)
            let rate = characterErrorRate(poem.recognizedText, truth: truth)
            #expect(rate <= 0.01, "page \(page.number): CER \(rate)\n\(poem.recognizedText)")
            #expect(poem.imageFacts.pageNumber == page.number && poem.imageFacts.pageCount == 3)
        }
        let joined = try String(contentsOfFile: Fixtures.sample("formats/poems-3page.txt"), encoding: .utf8)
        #expect(characterErrorRate(document.text, truth: joined) <= 0.01)
        // A form feed line between pages, none after the last.
        #expect(document.text.components(separatedBy: "\u{0C}\n").count == 3)
        #expect(document.text.hasPrefix("Lenore\n") && !document.text.hasSuffix("\u{0C}\n"))
        // Progress runs across the pages, never backwards, and ends at 100.
        let percents = seen.withLock { $0 }.map(\.percent)
        #expect(percents.last == 100 && percents == percents.sorted())
        #expect(seen.withLock { $0 }.contains { $0.page == 3 })
    }

    @Test("Replacements cover every page, and JSON has the pages and the whole")
    func replacementsAndJSON() async throws {
        var configuration = ScanConfiguration(replacements: ["Tyger": "Tiger", "Hope": "Love", "Lenore": "Alex"])
        configuration.engine.languages = .englishAndFrench
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let document = try await scanner.scanDocument(fileAt: Self.threePages)
        #expect(!document.text.contains("Tyger") && !document.text.contains("Lenore") && !document.text.contains("Hope"))
        let json = try #require(JSONExporter().export(document))
        let decoded = try JSONDecoder().decode(JSONPoemDocument.self, from: json)
        #expect(decoded.pageCount == 3 && decoded.pages?.map(\.page) == [1, 2, 3])
        #expect(decoded.text == document.text)
        let pages = Set(decoded.replacements.compactMap(\.page))
        #expect(pages == [1, 2, 3])
        // Each top-level replacement's line is its place in the joined original text.
        let lines = decoded.originalText.components(separatedBy: "\n")
        for record in decoded.replacements {
            #expect(lines[record.line - 1].contains(record.original), "\(record)")
        }
        #expect(decoded.pages?[1].text?.hasPrefix("The Tiger") == true)
        // Rendered as text: the same text; the report names the pages.
        var request = ExportRequest(format: .text)
        request.listsChanges = true
        let rendered = request.render(document, stamp: .now())
        #expect(rendered.document == Data(document.text.utf8))
        let report = try #require(rendered.diagnostics.first { $0.severity == .report })
        #expect(report.message.hasSuffix("on 3 pages"))
        #expect(report.notes.contains { $0.hasPrefix("page 2, line 1") })
        // A FIND found on one page only is not "not found".
        #expect(!rendered.diagnostics.contains { $0.severity == .warning && $0.message.contains("not found") })
    }

    @Test("A page that fails is reported with its number; the others are still read")
    func failingPage() async throws {
        let damaged = try Self.damagingPage(1, of: try Data(contentsOf: URL(fileURLWithPath: Self.threePages)))
        let scanner = try await SharedScanner.get()
        let document = try await scanner.scanDocument(imageData: damaged, name: "booklet.tif")
        #expect(document.pageCount == 3 && !document.isComplete)
        #expect(document.failures.map(\.page) == [2])
        #expect(document.failures.first?.error == .corruptImage(path: "booklet.tif", format: "TIFF"))
        #expect(document.poems.count == 2 && document.text.hasPrefix("Lenore") && document.text.contains("Hope"))
        let rendered = ExportRequest(format: .text).render(document, stamp: .now())
        #expect(rendered.document != nil)
        let error = try #require(rendered.diagnostics.first { $0.severity == .error })
        #expect(error.text == "booklet.tif (page 2 of 3): the TIFF data is damaged or truncated and could not be decoded")
        #expect(error.category == .input)
    }

    @Test("A 10,000-page TIFF is refused at once, naming the file, the count and the limit")
    func tooManyPages() throws {
        let data = Self.declaredPages(Array(repeating: (10, 10), count: 10_000))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: SnapPoemError.tooManyPages(path: "fax.tif", pages: "10000", limit: 100)) {
            try ImageDocument(data: data, name: "fax.tif")
        }
        #expect(clock.now - start < .seconds(2))
        let message = SnapPoemError.tooManyPages(path: "fax.tif", pages: "10000", limit: 100).description
        #expect(message.hasPrefix("fax.tif: the file holds 10000 pages, over the limit of 100 pages a file"))
        // The limit is the caller's.
        #expect(try ImageDocument(data: data, name: "fax.tif", limits: ImageLimits(maxPages: 10_000)).pageCount == 10_000)
    }

    @Test("The pixels of all pages together are bounded from the directories, before any page is decoded")
    func pagesTooLarge() throws {
        let data = Self.declaredPages([(20_000, 20_000), (20_000, 20_000), (20_000, 20_000)])
        #expect(
            throws: SnapPoemError.pagesTooLarge(path: "big.tif", pages: 3, pixels: "1200 megapixels", limit: "1000 megapixels")
        ) {
            try ImageDocument(data: data, name: "big.tif")
        }
        // Sides of 2^32 - 1 (what a LONG holds) are counted without overflow (found by fuzzing).
        let widest = Self.declaredPages([(0xFFFF_FFFF, 0xFFFF_FFFF), (0xFFFF_FFFF, 0xFFFF_FFFF)])
        #expect(throws: SnapPoemError.self) { try ImageDocument(data: widest, name: "wide.tif") }
        // Under the total, each page is still held to the per-image limit when it is decoded.
        let document = try ImageDocument(data: data, name: "big.tif", limits: ImageLimits(maxDocumentPixels: 2_000_000_000))
        #expect(throws: SnapPoemError.self) { try document.decodePage(1) }
    }

    @Test("Page sizes are read from the directories, and malformed chains end in a count")
    func directoryWalk() {
        let pages = TIFFDirectory.pages(of: Self.declaredPages([(3, 4), (5, 6)]))
        #expect(pages.sizes == [.init(width: 3, height: 4), .init(width: 5, height: 6)] && !pages.continues)
        #expect(TIFFDirectory.pages(of: [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 8, 0, 0, 0]).sizes.count == 1)
        #expect(TIFFDirectory.pages(of: [0x00, 0x01]).sizes == [nil])
    }

    @Test("A batch reads the file as one job: one outcome with every page, each page after the first announced")
    func oneJob() async throws {
        let reader = ImageReader(scanner: try await SharedScanner.get(), request: ExportRequest(format: .text))
        let started = Locked<[Int]>([])
        let outcome = await reader.read(
            ImageJob(index: 0, input: BatchInput(path: Self.threePages)), pageStarted: { page in started.withLock { $0.append(page) } })
        #expect(outcome.status == .ok && outcome.pageCount == 3 && outcome.failedPages.isEmpty)
        // The worker tells its supervisor of pages 2 and 3, whose per-image limit starts again.
        #expect(started.withLock { $0 } == [2, 3])
        let text = String(decoding: try #require(outcome.document), as: UTF8.self)
        #expect(text.components(separatedBy: "\u{0C}\n").count == 3)
        let entry = ManifestEntry(ImageJob(index: 0, input: BatchInput(path: Self.threePages)), outcome, optionsHash: "sha256:o")
        #expect(entry.pages == 3 && entry.failedPages.isEmpty)
        // The worker's message for it is one line that reads back.
        let line = WorkerLine.encode(WorkerMessage.page(7, 2))
        #expect(WorkerLine.decode(WorkerMessage.self, from: line.dropLast()) == WorkerMessage.page(7, 2))
    }

    @Test("A single image is a document of one page, decoded as before")
    func singleImage() async throws {
        let document = try ImageDocument(fileAt: Fixtures.sample("formats/stanza-rgb8.png"))
        #expect(document.pageCount == 1 && !document.hasSeveralPages)
        let (image, facts) = try document.decodePage(1)
        #expect((image.width, image.height) == (1004, 428) && facts.pageNumber == 1)
    }
}
