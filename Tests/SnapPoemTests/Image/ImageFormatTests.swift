import Foundation
import Testing

@testable import SnapPoem

@Suite("Every format Debian's Leptonica reads, and the ones it cannot")
struct ImageFormatTests {
    static let stanzaFiles: [(file: String, format: ImageFormat)] = [
        ("stanza-rgb8.png", .png), ("stanza-rgb16.png", .png), ("stanza-gray.png", .png),
        ("stanza-palette.png", .png), ("stanza-alpha.png", .png),
        ("stanza-baseline.jpg", .jpeg), ("stanza-progressive.jpg", .jpeg), ("stanza-gray.jpg", .jpeg),
        ("stanza-cmyk.jpg", .jpeg), ("stanza-1bit.tif", .tiff), ("stanza-rgb.tif", .tiff),
        ("stanza.webp", .webp), ("stanza.bmp", .bmp), ("stanza.gif", .gif), ("stanza.pnm", .pnm),
        ("stanza.jp2", .jpeg2000),
    ]

    @Test("Each encoding decodes to the 1004×428 stanza and reads with CER ≤ 1 %", arguments: stanzaFiles)
    func readsEveryEncoding(file: String, format: ImageFormat) async throws {
        let path = Fixtures.sample("formats/\(file)")
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect(facts.format == format)
        #expect(facts.warnings.isEmpty)
        #expect((image.width, image.height) == (1004, 428))
        let poem = try await SharedScanner.get().scan(image, facts: facts, name: file)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "formats/stanza.png"))
        #expect(rate <= 0.01, "\(file): CER \(rate)\n\(poem.recognizedText)")
    }

    @Test("The alpha-only PNG is flattened onto white, not read as a black rectangle")
    func alphaFlattenedOntoWhite() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("formats/stanza-alpha.png"))
        let gray = try ImagePreprocessor.grayscale(image).pix.grayBytes()
        let white = gray.filter { $0 > 200 }.count
        #expect(Double(white) / Double(gray.count) > 0.8)
    }

    @Test("A multi-page TIFF yields its first page and says how many it has")
    func multipageTIFF() async throws {
        let path = Fixtures.sample("formats/stanza-multipage.tif")
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect(facts.pageCount == 2)
        #expect(facts.warnings == ["the TIFF holds 2 pages; only the first is read"])
        let poem = try await SharedScanner.get().scan(image, facts: facts, name: path)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "formats/stanza.png"))
        #expect(rate <= 0.01, "CER \(rate)")
    }

    @Test("An animated WebP yields its first frame (its alpha too) and says how many it has; libwebp alone refuses it")
    func animatedWebP() async throws {
        let path = Fixtures.sample("formats/stanza-animated.webp")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let structure = try #require(WebPStructure(data))
        #expect((structure.firstFrameWidth, structure.firstFrameHeight, structure.frameCount) == (1004, 428, 2))
        // The first frame holds ALPH and VP8: wrapped with the extended header that says so.
        #expect(structure.firstFrame.prefix(4) == Data("RIFF".utf8))
        #expect(structure.firstFrame[12..<16] == Data("VP8X".utf8))
        #expect(WebPStructure(try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza.webp")))) == nil)
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect(facts.format == .webp)
        #expect(facts.pageCount == 2)
        #expect(facts.warnings == ["the WebP holds 2 frames; only the first is read"])
        #expect((image.width, image.height) == (1004, 428))
        let poem = try await SharedScanner.get().scan(image, facts: facts, name: path)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "formats/stanza.png"))
        #expect(rate <= 0.01, "CER \(rate)")
        // Cut inside its first frame, it is damaged; cut inside its second, the first is read.
        #expect(throws: SnapPoemError.corruptImage(path: "cut.webp", format: "WebP")) {
            try ImageDecoder.decode(data: data.prefix(2_000), name: "cut.webp")
        }
        let (_, cutFacts) = try ImageDecoder.decode(data: data.prefix(data.count - 1_000), name: "cut.webp")
        #expect(cutFacts.pageCount == 1 && cutFacts.warnings.isEmpty)
    }

    @Test("An animated WebP whose frame header says 1×1 around a 12300×12300 bitstream is refused, never decoded")
    func animatedWebPSizeClaim() throws {
        func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
            Array(name.utf8) + withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) } + payload
                + (payload.count % 2 == 1 ? [0] : [])
        }
        // A lossless bitstream of one colour: every Huffman code has a single symbol, so
        // each of its 151 million pixels costs no bits.
        func solidLossless(side: Int) -> [UInt8] {
            var bits: [UInt8] = []
            func put(_ value: Int, _ count: Int) { for index in 0..<count { bits.append(UInt8((value >> index) & 1)) } }
            put(side - 1, 14)
            put(side - 1, 14)
            put(0, 7)
            for symbol in [255, 255, 255, 255, 0] {
                put(1, 1)
                put(0, 1)
                put(1, 1)
                put(symbol, 8)
            }
            bits += [UInt8](repeating: 0, count: (8 - bits.count % 8) % 8)
            let bytes = stride(from: 0, to: bits.count, by: 8).map { start in
                (0..<8).reduce(UInt8(0)) { $0 | bits[start + $1] << UInt8($1) }
            }
            return [0x2F] + bytes
        }
        let oneByOne: [UInt8] = [0, 0, 0]
        let frame = chunk("ANMF", oneByOne + oneByOne + oneByOne + oneByOne + [100, 0, 0, 0] + chunk("VP8L", solidLossless(side: 12_300)))
        let body =
            Array("WEBP".utf8) + chunk("VP8X", [2, 0, 0, 0] + oneByOne + oneByOne) + chunk("ANIM", [255, 255, 255, 255, 0, 0])
            + frame + frame
        let file = Data(Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian) { Array($0) } + body)
        #expect(file.count < 200)
        #expect(throws: SnapPoemError.corruptImage(path: "claim.webp", format: "WebP")) {
            try ImageDecoder.checkHeader(data: file, name: "claim.webp")
        }
        #expect(throws: SnapPoemError.corruptImage(path: "claim.webp", format: "WebP")) {
            try ImageDecoder.decode(data: file, name: "claim.webp")
        }
    }

    @Test("Single-page files count one page", arguments: ["formats/stanza-rgb.tif", "formats/stanza-1bit.tif", "Lenore.png"])
    func singlePage(file: String) throws {
        let (_, facts) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        #expect(facts.pageCount == 1)
    }

    @Test("Damaged or non-image files fail with a typed error naming the file")
    func damagedFiles() throws {
        let truncated = Fixtures.sample("formats/truncated.png")
        #expect(throws: SnapPoemError.corruptImage(path: truncated, format: "PNG")) {
            try ImageDecoder.decode(fileAt: truncated)
        }
        // libjpeg alone would fill the missing half with grey; Leptonica 1.82 refuses it.
        let truncatedJPEG = Fixtures.sample("formats/truncated.jpg")
        #expect(throws: SnapPoemError.corruptImage(path: truncatedJPEG, format: "JPEG")) {
            try ImageDecoder.decode(fileAt: truncatedJPEG)
        }
        let text = Fixtures.sample("formats/not-an-image.png")
        #expect(throws: SnapPoemError.unsupportedImageFormat(path: text, detail: "the data is plain text")) {
            try ImageDecoder.decode(fileAt: text)
        }
        let empty = Fixtures.sample("formats/empty.png")
        #expect(throws: SnapPoemError.emptyFile(path: empty)) {
            try ImageDecoder.decode(fileAt: empty)
        }
    }

    @Test(
        "Formats Leptonica cannot read are named",
        arguments: [
            (
                "scan.pdf", Data("%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n1 0 obj".utf8),
                "the data is a PDF; export its pages as images first, e.g. pdftoppm -r 300 -png FILE.pdf page"
            ),
            ("noise.png", Data((0..<64).map { UInt8(($0 * 37 + 11) % 256) }), "unrecognised data"),
        ])
    func unreadableFormats(name: String, bytes: Data, detail: String) {
        #expect(throws: SnapPoemError.unsupportedImageFormat(path: name, detail: detail)) {
            try ImageDecoder.decode(data: bytes, name: name)
        }
    }

    @Test(
        "HEIC and AVIF are read by libheif now: a file that is only its brand is damaged, not unknown",
        arguments: [("photo.heic", "ftypheic", "HEIC"), ("photo.avif", "ftypavif", "AVIF")])
    func heifBrandsOnly(name: String, brand: String, format: String) {
        let bytes = Data([0, 0, 0, 24]) + Data(brand.utf8) + Data(repeating: 0, count: 16)
        #expect(throws: SnapPoemError.corruptImage(path: name, format: format)) {
            try ImageDecoder.decode(data: bytes, name: name)
        }
    }

    @Test("A header claiming 40000×40000 is refused before any pixel is decoded")
    func hugeHeader() throws {
        let path = Fixtures.sample("huge-header.png")
        let error = #expect(throws: SnapPoemError.self) { try ImageDecoder.decode(fileAt: path) }
        guard case .imageTooLarge(let name, let width, let height, _) = error else {
            Issue.record("expected imageTooLarge, got \(String(describing: error))")
            return
        }
        #expect(name == path && width == 40000 && height == 40000)
        let message = error?.description ?? ""
        #expect(message.hasPrefix("\(path): image is 40000×40000 pixels, over the limit of 150 megapixels"))
        #expect(!message.contains("\n"))
    }

    @Test("Pixel counts read the same in every message and locale, and a small limit is not shown as 0 megapixels")
    func pixelCountWording() {
        #expect(ImageLimits.describe(pixels: 150_000_000) == "150 megapixels")
        #expect(ImageLimits.describe(pixels: 15_123_456) == "15.1 megapixels")
        #expect(ImageLimits.describe(pixels: 1_000_000) == "1 megapixel")
        #expect(ImageLimits.describe(pixels: 449_999) == "0.4 megapixels")
        #expect(ImageLimits.describe(pixels: 100_000) == "0.1 megapixels")
        #expect(ImageLimits.describe(pixels: 99_999) == "99999 pixels")
        #expect(ImageLimits.describe(pixels: 1) == "1 pixel")
    }

    @Test("Limits are the caller's to choose")
    func customLimits() throws {
        let path = Fixtures.sample("Lenore.png")
        let error = #expect(throws: SnapPoemError.self) {
            try ImageDecoder.decode(fileAt: path, limits: ImageLimits(maxPixels: 1_000_000))
        }
        #expect(error == .imageTooLarge(path: path, width: 1731, height: 2622, limit: "1 megapixel and 65000 pixels a side"))
        #expect(throws: SnapPoemError.self) {
            try ImageDecoder.decode(fileAt: path, limits: ImageLimits(maxSide: 2000))
        }
    }

    @Test(
        "TIFF page counting survives malformed directories",
        arguments: [
            [UInt8]([0x49, 0x49, 42, 0, 8, 0, 0, 0]),  // first directory beyond the end
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1],  // entry count, then nothing
            [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 8, 0, 0, 0],  // a directory that points to itself
            [0x49, 0x49, 43, 0, 8, 0, 0, 0, 0, 0],  // BigTIFF: not followed
            [0x00, 0x01],
        ])
    func malformedTIFF(bytes: [UInt8]) {
        #expect(TIFFDirectory.pageCount(of: bytes) >= 1)
    }
}
