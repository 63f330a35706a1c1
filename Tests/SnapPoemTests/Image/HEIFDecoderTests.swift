import Foundation
import Testing

@testable import SnapPoem

@Suite("HEIC and AVIF through libheif: the primary image, upright once, within the limits")
struct HEIFDecoderTests {
    static let stanzaFiles: [(file: String, format: ImageFormat, orientation: ExifOrientation, stored: [Int])] = [
        ("stanza.heic", .heic, .up, [1004, 428]),
        ("stanza.avif", .avif, .up, [1004, 428]),
        ("stanza-alpha.heic", .heic, .up, [1004, 428]),
        ("stanza-10bit.heic", .heic, .up, [1004, 428]),
        // Stored turned, with irot 3: libheif turns it; reported as EXIF's "right".
        ("stanza-irot.heic", .heic, .right, [428, 1004]),
        // Stored mirrored, with imir: libheif mirrors it back.
        ("stanza-imir.heic", .heic, .upMirrored, [1004, 428]),
    ]

    @Test("Each HEIF file decodes upright to the 1004×428 stanza and reads with CER ≤ 1 %", arguments: stanzaFiles)
    func readsEveryFile(file: String, format: ImageFormat, orientation: ExifOrientation, stored: [Int]) async throws {
        let path = Fixtures.sample("formats/\(file)")
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect(facts.format == format)
        #expect(facts.orientation == orientation)
        #expect([facts.storedWidth, facts.storedHeight] == stored)
        #expect(facts.warnings.isEmpty && facts.pageCount == 1)
        // Turned once (by libheif), never a second time by snap-poem.
        #expect((image.width, image.height) == (1004, 428))
        let poem = try await SharedScanner.get().scan(image, facts: facts, name: file)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "formats/stanza.png"))
        #expect(rate <= 0.01, "\(file): CER \(rate)\n\(poem.recognizedText)")
    }

    @Test("The alpha-only HEIC is flattened onto white, not read as a black rectangle")
    func alphaFlattenedOntoWhite() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("formats/stanza-alpha.heic"))
        let gray = try ImagePreprocessor.grayscale(image).pix.grayBytes()
        #expect(Double(gray.filter { $0 > 200 }.count) / Double(gray.count) > 0.8)
    }

    @Test("Lenore saved as HEIC and as AVIF reads with every 'Lenore' replaced", arguments: ["Lenore.heic", "Lenore.avif"])
    func lenoreReplaced(file: String) async throws {
        let poem = try await PoemScanner.scan(
            fileAt: URL(fileURLWithPath: Fixtures.sample("formats/\(file)")), replacing: ["Lenore": "Alex"])
        #expect(!poem.text.contains("Lenore"), "\(poem.text)")
        #expect(poem.personalized.changes.count == 3)
        #expect(poem.text.components(separatedBy: "Alex").count - 1 == 3)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "Lenore.png"))
        #expect(rate <= 0.01, "CER \(rate)")
    }

    @Test("The size is checked from the boxes before any pixel is decoded, under the same limits as every format")
    func limitsBeforeDecoding() throws {
        let path = Fixtures.sample("formats/stanza-irot.heic")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = try ImageDecoder.checkHeader(data: data, name: "a.heic")
        #expect(header.format == .heic && header.width == 1004 && header.height == 428)
        // The decoder holds 12 bytes a pixel, under the 13 the limit plans for: the pixel
        // limit applies as it is, to the size after the turn.
        #expect(
            throws: SnapPoemError.imageTooLarge(path: "a.heic", width: 1004, height: 428, limit: "0.4 megapixels and 65000 pixels a side")
        ) {
            try ImageDecoder.decode(data: data, name: "a.heic", limits: ImageLimits(maxPixels: 400_000))
        }
        #expect(
            throws: SnapPoemError.imageTooLarge(path: "a.heic", width: 1004, height: 428, limit: "150 megapixels and 1000 pixels a side")
        ) {
            try ImageDecoder.checkHeader(data: data, name: "a.heic", limits: ImageLimits(maxSide: 1000))
        }
    }

    @Test("A coding this libheif has no decoder for is refused before decoding, naming the file and what to do")
    func missingDecoder() throws {
        // The primary item's type changed from hvc1 to vvc1 (VVC), which Debian's libheif
        // does not decode.
        var data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza.heic")))
        let range = try #require(data.range(of: Data("hvc1".utf8)))
        data.replaceSubrange(range, with: Data("vvc1".utf8))
        #expect(HEIFStructure(data)?.coding == "vvc1")
        #expect(
            throws: SnapPoemError.unsupportedImageFormat(
                path: "v.heic",
                detail: "the data is HEIC, and this libheif has no decoder for its coding ('vvc1'); export the photo as JPEG first")
        ) {
            try ImageDecoder.decode(data: data, name: "v.heic")
        }
        let error = #expect(throws: SnapPoemError.self) { try ImageDecoder.checkHeader(data: data, name: "v.heic") }
        #expect(error?.description.hasPrefix("v.heic: not an image snap-poem can read (the data is HEIC, and this libheif has no") == true)
        #expect(
            HEIFDecoder.missingDecoder(format: .avif, coding: "av01")
                == "the data is AVIF, and this libheif has no AV1 decoder (on Debian 13, install libheif-plugin-dav1d); export it as JPEG or PNG first"
        )
    }

    @Test("Damaged HEIF data and image sequences fail with typed errors naming the file")
    func damaged() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza.heic")))
        #expect(throws: SnapPoemError.corruptImage(path: "cut.heic", format: "HEIC")) {
            try ImageDecoder.decode(data: data.prefix(data.count / 2), name: "cut.heic")
        }
        #expect(throws: SnapPoemError.corruptImage(path: "head.heic", format: "HEIC")) {
            try ImageDecoder.decode(data: data.prefix(200), name: "head.heic")
        }
        // A sequence (a burst) with no still image: an ftyp and a movie box only.
        let sequence =
            Data([0, 0, 0, 24]) + Data("ftypmsf1".utf8) + Data([0, 0, 0, 0]) + Data("msf1hevc".utf8)
            + Data([0, 0, 0, 8]) + Data("moov".utf8)
        let error = #expect(throws: SnapPoemError.self) { try ImageDecoder.decode(data: sequence, name: "burst.heic") }
        #expect(error?.description.contains("a HEIF image sequence without a still image") == true)
    }

    @Test("Of a HEIC holding several images (a burst), the primary one is read, with a warning naming the count")
    func primaryOfSeveral() throws {
        let path = Fixtures.root.appendingPathComponent("Fuzz/Corpus/heif/corner-two-images.heic").path
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect((image.width, image.height) == (128, 64))
        #expect(facts.pageCount == 2)
        #expect(facts.warnings == ["the HEIC holds 2 images; only the primary one is read"])
    }

    @Test("Formats are told apart by their brands")
    func brands() {
        #expect(HEIFStructure.format(major: "heic", compatible: ["mif1", "heic"]) == .heic)
        #expect(HEIFStructure.format(major: "avif", compatible: ["mif1"]) == .avif)
        #expect(HEIFStructure.format(major: "mif1", compatible: ["mif1", "avif", "miaf"]) == .avif)
        #expect(HEIFStructure.format(major: "mif1", compatible: ["mif1", "heic"]) == .heic)
        #expect(HEIFStructure.format(major: "isom", compatible: ["mp41"]) == nil)
        #expect(ImageFormat(mediaType: "image/heic") == .heic && ImageFormat(mediaType: "image/avif") == .avif)
        #expect(ImageFormat(mediaType: "image/heif") == .heic)
    }

    @Test("irot and imir compose into the EXIF orientation that asks for the same turn")
    func transformComposition() {
        typealias T = HEIFStructure.Transform
        let quarter = T(mirrored: false, clockwiseTurns: 1)
        let mirror = T(mirrored: true, clockwiseTurns: 0)
        #expect(T.identity.then(quarter).exifOrientation == .right)
        #expect(quarter.then(quarter).then(quarter).exifOrientation == .left)
        #expect(mirror.then(quarter).exifOrientation == .rightMirrored)  // mirror, then turn: transverse
        #expect(quarter.then(mirror).exifOrientation == .leftMirrored)  // turn, then mirror: transpose
        #expect(mirror.then(mirror).exifOrientation == .up)
        #expect(T(mirrored: true, clockwiseTurns: 2).exifOrientation == .downMirrored)
    }
}
