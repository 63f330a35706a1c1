import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

@Suite("EXIF orientation: every value turns the stored pixels upright, and bad data never traps")
struct ExifOrientationTests {
    /// The mean absolute grey difference between two images of the same size.
    static func meanDifference(_ a: PoemImage, _ b: PoemImage) throws -> Double {
        let x = try ImagePreprocessor.grayscale(a).pix.grayBytes(), y = try ImagePreprocessor.grayscale(b).pix.grayBytes()
        guard x.count == y.count, !x.isEmpty else { return .infinity }
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }

    @Test("orientation-N.jpg decodes to the upright image", arguments: 1...8)
    func turnsUpright(value: Int) throws {
        let (upright, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("orientation/orientation-1.jpg"))
        let (image, facts) = try ImageDecoder.decode(fileAt: Fixtures.sample("orientation/orientation-\(value).jpg"))
        #expect(facts.orientation == ExifOrientation(rawValue: value))
        #expect((image.width, image.height) == (upright.width, upright.height))
        let difference = try Self.meanDifference(image, upright)
        #expect(difference < 3, "tag \(value): mean difference \(difference) grey levels")
    }

    @Test("The comparison would catch a wrong turn or a missing mirror")
    func comparisonCatchesWrongTurns() throws {
        let (upright, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("orientation/orientation-1.jpg"))
        #expect(try Self.meanDifference(ImagePreprocessor.rotated(upright, clockwiseDegrees: 180), upright) > 10)
        let (mirrored, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("orientation/orientation-2.jpg"))
        #expect(try Self.meanDifference(ImagePreprocessor.rotated(mirrored, clockwiseDegrees: 180), upright) > 10)
    }

    @Test("The sideways phone photo reads like the upright one")
    func exifRotatedPhoto() async throws {
        let path = Fixtures.sample("photo-exif-rotated.jpg")
        let (image, facts) = try ImageDecoder.decode(fileAt: path)
        #expect(facts.orientation == .right)
        #expect((facts.storedWidth, facts.storedHeight) == (1383, 1697))
        #expect((image.width, image.height) == (1697, 1383))
        let poem = try await SharedScanner.get().scan(image, facts: facts, name: path)
        let rate = characterErrorRate(poem.recognizedText, truth: try Fixtures.groundTruth(for: "photo-exif-rotated.jpg"))
        #expect(rate <= 0.01, "CER \(rate)")
    }

    /// A JPEG start, one APP1 "Exif" segment holding `tiff`, then a start of scan.
    static func jpeg(exif tiff: [UInt8]) -> [UInt8] {
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + [0xFF, 0xDA, 0, 2]
    }

    /// A TIFF header with one IFD entry: tag 0x0112, type SHORT, count 1, `value`.
    static func tiff(value: UInt16, bigEndian: Bool, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
        }
        let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        return order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(type) + u32(1) + u16(value) + u16(0) + u32(0)
    }

    @Test("Both byte orders, every value", arguments: [false, true], 1...8)
    func parsesBothByteOrders(bigEndian: Bool, value: Int) {
        let bytes = Self.jpeg(exif: Self.tiff(value: UInt16(value), bigEndian: bigEndian))
        #expect(ExifOrientation.read(fromJPEG: bytes) == ExifOrientation(rawValue: value))
    }

    @Test(
        "Malformed EXIF yields nil",
        arguments: [
            [UInt8](),
            [0xFF, 0xD8],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],  // a PNG
            [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45, 0x78],  // segment longer than the file
            [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01],  // segment length below 2
            ExifOrientationTests.jpeg(exif: [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]),  // IFD far beyond the end
            ExifOrientationTests.jpeg(exif: [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF]),  // 65535 entries, none present
            ExifOrientationTests.jpeg(exif: [0x41, 0x41, 42, 0, 8, 0, 0, 0]),  // no byte order mark
            ExifOrientationTests.jpeg(exif: ExifOrientationTests.tiff(value: 9, bigEndian: false)),  // no such orientation
            ExifOrientationTests.jpeg(exif: ExifOrientationTests.tiff(value: 0, bigEndian: true)),
            ExifOrientationTests.jpeg(exif: ExifOrientationTests.tiff(value: 6, bigEndian: false, type: 4)),  // LONG, not SHORT
        ])
    func malformed(bytes: [UInt8]) {
        #expect(ExifOrientation.read(fromJPEG: bytes) == nil)
    }

    @Test("Random damage to a valid header never traps")
    func fuzz() {
        var generator = SeededGenerator(seed: 6)
        let valid = Self.jpeg(exif: Self.tiff(value: 6, bigEndian: false))
        for round in 0..<5000 {
            var bytes = valid
            for _ in 0..<(1 + round % 4) {
                bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
            _ = ExifOrientation.read(fromJPEG: bytes)
        }
    }
}
