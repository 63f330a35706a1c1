import Foundation
import Testing

@testable import SnapPoem

/// Hostile JPEG 2000 files, each made from the real `stanza.jp2` (1004×428, RGB) by changing
/// a few bytes, and one written by OpenJPEG itself with its colour subsampled.
@Suite("JPEG 2000: the size is the codestream's, its decoder's memory counts, subsampled colour is refused")
struct JPEG2000HeaderTests {
    static func stanza() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza.jp2")))
    }

    /// The offset of the first occurrence of `text`'s bytes.
    static func offset(of text: String, in data: Data) throws -> Int {
        let bytes = [UInt8](data), pattern = Array(text.utf8)
        return try #require((0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) })
    }

    /// `data` with a box of `type` holding `content` inserted at `position`.
    static func inserting(box type: String, _ content: [UInt8], at position: Int, in data: Data) -> Data {
        let length = UInt32(8 + content.count)
        let header = withUnsafeBytes(of: length.bigEndian) { Array($0) } + Array(type.utf8)
        var result = data
        result.insert(contentsOf: header + content, at: position)
        return result
    }

    @Test("The real file's header: the codestream's size, three components, 16 bytes a pixel to decode")
    func realFile() throws {
        let header = try #require(JPEG2000Header(try Self.stanza()))
        #expect(header == JPEG2000Header(width: 1004, height: 428, components: 3, hasMixedSampling: false))
        #expect(header.decodingBytesPerPixel == 16)
        // The bare codestream (the jp2c box's content) reads the same.
        let data = try Self.stanza()
        let codestream = data.suffix(from: try Self.offset(of: "jp2c", in: data) + 4)
        #expect(JPEG2000Header(Data(codestream)) == header)
        let (image, facts) = try ImageDecoder.decode(data: Data(codestream), name: "bare.j2k")
        #expect(facts.format == .jpeg2000 && (image.width, image.height) == (1004, 428))
    }

    @Test("A decoy 'ihdr' before the real header (Leptonica's reader takes the first) does not hide the size decoded")
    func decoyHeader() throws {
        let data = try Self.stanza()
        // After the signature and ftyp boxes (32 bytes): a uuid box whose bytes hold "ihdr",
        // aligned as Leptonica reads it, declaring 10×10.
        let decoy: [UInt8] = Array(repeating: 7, count: 16) + Array("ihdr".utf8) + [0, 0, 0, 10, 0, 0, 0, 10, 0, 3, 7, 7, 0, 0]
        let hostile = Self.inserting(box: "uuid", decoy, at: 32, in: data)
        #expect(try Self.offset(of: "ihdr", in: hostile) == 56, "the decoy comes first, on a 4-byte boundary")
        // Twice the stanza's pixels pass its 16 bytes a pixel; 1.1 times do not (the limit
        // is planned at 13 bytes a pixel).
        let pixels = 1004 * 428
        let (image, _) = try ImageDecoder.decode(data: hostile, name: "decoy.jp2", limits: ImageLimits(maxPixels: 2 * pixels))
        #expect((image.width, image.height) == (1004, 428), "OpenJPEG decodes the codestream, whatever the decoy says")
        let error = #expect(throws: SnapPoemError.self) {
            try ImageDecoder.decode(data: hostile, name: "decoy.jp2", limits: ImageLimits(maxPixels: pixels + pixels / 10))
        }
        #expect(
            error?.description
                == "decoy.jp2: image is 1004×428 pixels, over the limit of 0.4 megapixels for a JPEG 2000 image like this one (its decoder holds 16 bytes a pixel, where the limit of 0.5 megapixels plans for 13) and 65000 pixels a side; scale it down first"
        )
        // checkHeader, which the service calls before an upload waits for an engine, agrees.
        #expect(throws: SnapPoemError.self) {
            try ImageDecoder.checkHeader(data: hostile, name: "decoy.jp2", limits: ImageLimits(maxPixels: pixels + pixels / 10))
        }
    }

    @Test("Colour subsampled by OpenJPEG (4:2:0) is refused before decoding: Leptonica would read past the smaller components")
    func subsampledColour() throws {
        let path = Fixtures.sample("formats/hostile-subsampled.jp2")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = try #require(JPEG2000Header(data))
        #expect(header.hasMixedSampling && header.components == 3)
        #expect(
            throws: SnapPoemError.unsupportedImageFormat(
                path: path,
                detail:
                    "a JPEG 2000 image whose colour is subsampled, so that its components differ in size, which Leptonica cannot read safely; convert it to PNG first"
            )
        ) { try ImageDecoder.decode(fileAt: path) }
    }

    @Test("A palette of 200 columns or more than four components is refused from the header")
    func componentsBounded() throws {
        let data = try Self.stanza()
        // A pclr box (NE = 2 entries, NPC = 200 columns) at the start of jp2h's content.
        let jp2h = try Self.offset(of: "jp2h", in: data) - 4
        let content: [UInt8] = [0, 2, 200] + [UInt8](repeating: 7, count: 600)
        var palette = Self.inserting(box: "pclr", content, at: jp2h + 8, in: data)
        let length = data[jp2h..<(jp2h + 4)].reduce(0) { $0 << 8 | Int($1) }
        let grown = UInt32(length + 8 + content.count)
        palette.replaceSubrange(jp2h..<(jp2h + 4), with: withUnsafeBytes(of: grown.bigEndian) { Array($0) })
        #expect(JPEG2000Header(palette)?.components == 200)
        #expect(
            throws: SnapPoemError.unsupportedImageFormat(path: "p.jp2", detail: "a JPEG 2000 image of 200 components; 1 to 4 can be read")
        ) {
            try ImageDecoder.decode(data: palette, name: "p.jp2")
        }
        // Csiz = 5 in the SIZ marker, with two more component entries (and Lsiz and the
        // jp2c box's length grown to match).
        var five = data
        let siz = try Self.offset(of: "jp2c", in: data) + 4
        five.insert(contentsOf: [7, 1, 1, 7, 1, 1], at: siz + 42 + 9)
        five[siz + 5] += 6
        five[siz + 41] = 5
        let boxLength = data[(siz - 8)..<(siz - 4)].reduce(0) { $0 << 8 | Int($1) }
        if boxLength != 0 {
            five.replaceSubrange((siz - 8)..<(siz - 4), with: withUnsafeBytes(of: UInt32(boxLength + 6).bigEndian) { Array($0) })
        }
        #expect(JPEG2000Header(five)?.components == 5)
        #expect(
            throws: SnapPoemError.unsupportedImageFormat(path: "5.jp2", detail: "a JPEG 2000 image of 5 components; 1 to 4 can be read")
        ) {
            try ImageDecoder.decode(data: five, name: "5.jp2")
        }
    }

    @Test("Boxes that cannot be followed to a codestream are damaged, never read past their end")
    func brokenBoxes() throws {
        let data = try Self.stanza()
        let jp2c = try Self.offset(of: "jp2c", in: data) - 4
        var noCodestream = data
        noCodestream.replaceSubrange((jp2c + 4)..<(jp2c + 8), with: Array("free".utf8))
        var tooLong = data
        tooLong.replaceSubrange(jp2c..<(jp2c + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        var extended = data  // LBox 1, then XLBox must follow: cut there.
        extended = extended.prefix(jp2c) + Data([0, 0, 0, 1]) + Data("jp2c".utf8) + Data([0xFF, 0xFF])
        for (name, bytes) in [
            ("no-codestream.jp2", noCodestream), ("too-long.jp2", tooLong), ("cut.jp2", extended), ("short.jp2", data.prefix(60)),
        ] {
            #expect(JPEG2000Header(bytes) == nil, "\(name)")
            #expect(throws: SnapPoemError.corruptImage(path: name, format: "JPEG 2000")) {
                try ImageDecoder.decode(data: bytes, name: name)
            }
        }
    }
}

@Suite("TIFF: a decoder holding more than the planned 13 bytes a pixel is allowed proportionally fewer pixels")
struct TIFFDecodingCostTests {
    /// An uncompressed, little-endian TIFF of one strip: `side`×`side` pixels of 16-bit RGBA
    /// (white, opaque), with `compression` in its directory.
    static func rgba16(side: Int, compression: UInt16 = 1) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        let entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 3, 1, side), (257, 3, 1, side), (258, 3, 4, 0), (259, 3, 1, Int(compression)), (262, 3, 1, 2),
            (273, 4, 1, 0), (277, 3, 1, 4), (278, 3, 1, side), (279, 4, 1, side * side * 8), (284, 3, 1, 1), (338, 3, 1, 2),
        ]
        let directoryEnd = 8 + 2 + entries.count * 12 + 4
        let bitsOffset = directoryEnd, pixelsOffset = directoryEnd + 8
        bytes += u16(entries.count)
        for entry in entries {
            let value = entry.tag == 258 ? bitsOffset : entry.tag == 273 ? pixelsOffset : entry.value
            bytes +=
                u16(entry.tag) + u16(entry.type) + u32(entry.count)
                + (entry.type == 3 && entry.count == 1 ? u16(value) + [0, 0] : u32(value))
        }
        bytes += u32(0) + u16(16) + u16(16) + u16(16) + u16(16)
        bytes += [UInt8](repeating: 0xFF, count: side * side * 8)
        return Data(bytes)
    }

    @Test("16-bit RGBA: 16 bytes a pixel, so 13/16 of the limit; 8-bit RGB (11 bytes a pixel) gets all of it")
    func proportionalLimit() throws {
        let tiff = Self.rgba16(side: 100)
        let (image, _) = try ImageDecoder.decode(data: tiff, name: "wide.tif", limits: ImageLimits(maxPixels: 20_000))
        #expect((image.width, image.height) == (100, 100))
        let error = #expect(throws: SnapPoemError.self) {
            try ImageDecoder.checkHeader(data: tiff, name: "wide.tif", limits: ImageLimits(maxPixels: 10_000))
        }
        #expect(
            error?.description.contains(
                "over the limit of 8125 pixels for a TIFF image like this one (its decoder holds 16 bytes a pixel, where the limit of 10000 pixels plans for 13)"
            ) == true,
            "\(String(describing: error))")
        let rgb = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza-rgb.tif")))
        _ = try ImageDecoder.checkHeader(data: rgb, name: "rgb.tif", limits: ImageLimits(maxPixels: 1004 * 428))
        #expect(TIFFDirectory.isJPEGCompressed(Self.rgba16(side: 4, compression: 7)))
        #expect(!TIFFDirectory.isJPEGCompressed(tiff) && !TIFFDirectory.isJPEGCompressed(rgb))
    }
}
