import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// Row 3 (GIF sizes from the header, animated GIFs), row 5 (a nil from Leptonica), the
/// shared-image review point (a clone from `pixRotate`), and row 10's escaping.
@Suite("Images: sizes from headers, first frames only, Leptonica failures as errors")
struct ImageHardeningTests {
    /// A one-frame GIF of a `width` × `height` grey image, written by Leptonica.
    static func gif(width: Int, height: Int) throws -> Data {
        let image = try #require(PoemImage.filled(width: width, height: height, gray: 200))
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        try #require(pixWriteMem(&bytes, &size, image.pix.pointer, Int32(IFF_GIF)) == 0)
        defer { free(bytes) }
        return Data(bytes: try #require(bytes), count: size)
    }

    /// `data` (one frame) with its frame's size rewritten in the screen and image
    /// descriptors, and everything after the descriptor replaced by a little garbage.
    static func claimingSize(_ data: Data, width: Int, height: Int) throws -> Data {
        var bytes = [UInt8](data)
        let descriptor = try #require(frameStart(bytes))
        for (offset, value) in [(6, width), (8, height), (descriptor + 5, width), (descriptor + 7, height)] {
            bytes[offset] = UInt8(value & 0xFF)
            bytes[offset + 1] = UInt8(value >> 8)
        }
        bytes[descriptor + 9] = 0  // no local colour table
        return Data(bytes[..<(descriptor + 10)] + [2, 3, 0x4C, 0x01, 0x00, 0, 0x3B])
    }

    /// Where the first image descriptor (0x2C) starts, after the screen, colour table and
    /// any extensions.
    static func frameStart(_ bytes: [UInt8]) -> Int? {
        var position = 13
        if bytes[10] & 0x80 != 0 { position += 3 << (Int(bytes[10] & 7) + 1) }
        while position < bytes.count, bytes[position] == 0x21 {
            position += 2
            while position < bytes.count, bytes[position] != 0 { position += Int(bytes[position]) + 1 }
            position += 1
        }
        return position < bytes.count && bytes[position] == 0x2C ? position : nil
    }

    @Test("A GIF claiming 30000×30000 is refused from its header; its pixel data is never decoded")
    func hugeGIFRefusedFromHeader() throws {
        // The data after the descriptor is garbage: decoding it would fail as damaged, so
        // "too large" proves the size was read first and nothing was decoded.
        let data = try Self.claimingSize(Self.gif(width: 40, height: 30), width: 30000, height: 30000)
        #expect(
            throws: SnapPoemError.imageTooLarge(path: "g.gif", width: 30000, height: 30000, limit: "150 megapixels and 65000 pixels a side")
        ) {
            try ImageDecoder.decode(data: data, name: "g.gif")
        }
        let structure = try #require(GIFStructure(data))
        #expect((structure.firstFrameWidth, structure.firstFrameHeight, structure.frameCount) == (30000, 30000, 1))
    }

    @Test("An animated GIF: only the first frame is decoded (a broken second frame does not matter), with a warning")
    func animatedGIF() throws {
        let single = try Self.gif(width: 40, height: 30)
        let bytes = [UInt8](single)
        let start = try #require(Self.frameStart(bytes))
        let structure = try #require(GIFStructure(single))
        let frame = Array(bytes[start..<structure.firstFrameEnd])
        // A second frame whose data stops after one byte: giflib's DGifSlurp fails on it.
        let broken = Array(frame.prefix(11)) + [1, 0x00, 0]
        let animated = Data(bytes[..<start] + frame + broken + frame + [0x3B])
        #expect(pixReadMem(Array(animated), animated.count) == nil, "giflib should refuse the whole animation")
        let (image, facts) = try ImageDecoder.decode(data: animated, name: "a.gif")
        #expect((image.width, image.height) == (40, 30))
        #expect(facts.pageCount == 3)
        #expect(facts.warnings == ["the GIF holds 3 frames; only the first is read"])
    }

    @Test("Extensions before the first frame are left out of what giflib decodes; the frame's graphic control is kept")
    func gifExtensionsLeftOut() throws {
        let single = try Self.gif(width: 40, height: 30)
        let bytes = [UInt8](single)
        let start = try #require(Self.frameStart(bytes))
        // A comment of 200,000 one-byte sub-blocks (giflib would keep each as a record and a
        // copy), a NETSCAPE loop, then a graphic control that makes colour 0 transparent.
        let comment: [UInt8] =
            [0x21, 0xFE] + [UInt8](repeating: 0, count: 200_000 * 2).enumerated().map { $0.offset % 2 == 0 ? 1 : 65 } + [0]
        let loop: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let control: [UInt8] = [0x21, 0xF9, 4, 1, 0, 0, 0, 0]
        let headerEnd = try #require(GIFStructure(single)).headerEnd
        let hostile = Data(bytes[..<headerEnd] + comment + loop + control + bytes[start...])
        let structure = try #require(GIFStructure(hostile))
        let decodable = structure.firstFrameOnly(of: hostile)
        let frame = [UInt8](hostile[structure.firstFrameStart..<structure.firstFrameEnd])
        #expect(frame == Array(bytes[start..<(start + frame.count)]))
        #expect(decodable == Data(bytes[..<headerEnd] + control + frame + [0x3B]))
        #expect(decodable.count < 1_000 && hostile.count > 400_000)
        let (image, facts) = try ImageDecoder.decode(data: hostile, name: "c.gif")
        #expect((image.width, image.height) == (40, 30) && facts.pageCount == 1)
    }

    @Test("A PNG's text chunks, before and after the image data, are left out of what libpng decodes; every other byte is kept")
    func pngTextChunksLeftOut() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza-rgb8.png")))
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func chunk(_ type: String, _ content: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + content
            return withUnsafeBytes(of: UInt32(content.count).bigEndian) { Array($0) } + body
                + withUnsafeBytes(of: crc32(body).bigEndian) { Array($0) }
        }
        // A zTXt whose zlib stream is damaged: libpng says so when it inflates it.
        let text = chunk("tEXt", Array("Comment\u{0}hello".utf8))
        let compressed = chunk("zTXt", Array("Title".utf8) + [0, 0, 0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF])
        let international = chunk("iTXt", Array("Author".utf8) + [0, 1, 0, 0, 0, 0x78, 0x9C, 0xFF, 0xFF])
        let bytes = [UInt8](original)
        let afterHeader = 8 + 25  // the signature and IHDR
        let iend = bytes.count - 12
        let hostile = Data(bytes[..<afterHeader] + text + compressed + bytes[afterHeader..<iend] + international + bytes[iend...])
        #expect(PNGTextChunks.removed(from: hostile) == original)
        #expect(PNGTextChunks.removed(from: original) == nil, "nothing to leave out, nothing copied")
        let (image, facts) = try ImageDecoder.decode(data: hostile, name: "t.png")
        #expect((image.width, image.height) == (1004, 428))
        #expect(facts.warnings.isEmpty, "libpng never saw the text chunks: \(facts.warnings)")
        // A chunk whose length runs past the data: the rest is kept for the decoder to judge.
        let cut = Data(bytes[..<afterHeader] + text + [0x7F, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + [1, 2, 3])
        #expect(
            PNGTextChunks.removed(from: cut) == Data(bytes[..<afterHeader] + [0x7F, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + [1, 2, 3]))
    }

    @Test(
        "The GIF walker survives malformed data",
        arguments: [
            [UInt8](Array("GIF89a".utf8)) + [1, 0, 1, 0, 0x80, 0, 0],  // colour table cut off
            [UInt8](Array("GIF89a".utf8)) + [1, 0, 1, 0, 0, 0, 0, 0x2C, 0, 0],  // descriptor cut off
            [UInt8](Array("GIF89a".utf8)) + [1, 0, 1, 0, 0, 0, 0, 0x21, 0xF9, 200],  // extension longer than the data
            [UInt8](Array("GIF87a".utf8)) + [0, 0, 0, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3B],  // 0×0
        ])
    func malformedGIF(bytes: [UInt8]) {
        #expect(GIFStructure(Data(bytes)) == nil)
    }

    @Test("BMP sizes are read from the header, top-down rows included")
    func bmpHeader() {
        var header = [UInt8](repeating: 0, count: 54)
        header[0] = 0x42
        header[1] = 0x4D
        header[14] = 40
        header.replaceSubrange(18..<22, with: [0xA0, 0x86, 0x01, 0x00])  // 100000
        header.replaceSubrange(22..<26, with: [0x60, 0x79, 0xFE, 0xFF])  // −100000: top-down
        #expect(BMPHeader.size(of: header)! == (100000, 100000))
        header.replaceSubrange(18..<22, with: [0, 0, 0, 0])
        #expect(BMPHeader.size(of: header) == nil)
        #expect(BMPHeader.size(of: header.prefix(20)) == nil)
    }

    @Test("A nil from a Leptonica step is an out-of-memory error naming the image, never a trap")
    func leptonicaNil() throws {
        let image = try #require(PoemImage.filled(width: 32, height: 16))
        do {
            _ = try image.pix.transformed("pixScaleToSize") { _ in nil }
            Issue.record("a nil result was accepted")
        } catch {
            #expect(error == .outOfMemory(path: "image", stage: "running Leptonica's pixScaleToSize on a 32×16 image of 8 bits a pixel"))
            #expect(error.naming("Lenore.png").description.hasPrefix("Lenore.png: out of memory while running Leptonica's pixScaleToSize"))
            #expect(SnapPoemError.fileNotFound(path: "a.png").naming("b.png") == .fileNotFound(path: "a.png"))
        }
    }

    /// Leptonica's reference count of `pix`. `pixGetRefcount` left Leptonica's API in 1.83 (the
    /// count became atomic and internal), so the count is read where `pix_internal.h` (installed
    /// by 1.82 and 1.84 alike) puts it: the 32-bit field after `w`, `h`, `d`, `spp` and `wpl`,
    /// which are checked against their accessors first.
    static func referenceCount(_ pix: PixPointer) throws -> Int {
        let fields = UnsafeRawPointer(pix)
        let field = { (index: Int) in fields.load(fromByteOffset: 4 * index, as: Int32.self) }
        try #require(
            [field(0), field(1), field(2), field(3), field(4)]
                == [pixGetWidth(pix), pixGetHeight(pix), pixGetDepth(pix), pixGetSpp(pix), pixGetWpl(pix)],
            "struct Pix does not start with w, h, d, spp, wpl, refcount")
        return Int(field(5))
    }

    @Test("A clone returned by Leptonica gives its reference back: no two PixImages share a count")
    func cloneResolved() throws {
        let image = try #require(PoemImage.filled(width: 64, height: 64))
        // The count read is the one pixClone and pixDestroy change.
        var clone: PixPointer? = pixClone(image.pix.pointer)
        #expect(try Self.referenceCount(image.pix.pointer) == 2)
        pixDestroy(&clone)
        #expect(try Self.referenceCount(image.pix.pointer) == 1)
        let same = image.pix.attempt { pixClone($0) }
        #expect(same === image.pix)
        #expect(try Self.referenceCount(image.pix.pointer) == 1)
        // pixRotate returns a clone below 0.0573°; deskewed accepts angles from 0.05°.
        let turned = try ImagePreprocessor.deskewed(image, angle: 0.055)
        #expect(try Self.referenceCount(turned.pix.pointer) == 1)
        #expect(try Self.referenceCount(image.pix.pointer) == 1)
    }

    @Test("Errors are one line whatever the file name holds, and are LocalizedErrors")
    func oneLineErrors() {
        let error = SnapPoemError.fileNotFound(path: "a\nb\u{1B}[31m\u{202E}.png")
        #expect(error.description == "a\\nb\\u{1B}[31m\\u{202E}.png: no such file")
        #expect(error.localizedDescription == error.description)
        #expect((error as any Error).localizedDescription == error.description)
        #expect(OneLine.escaping("Lénore\\ and\ttab") == "Lénore\\ and\\ttab")
        #expect(ByteCount.describe(512 << 20) == "512 MiB")
        #expect(ByteCount.describe(1536) == "1.5 KiB")
        #expect(ByteCount.describe(10) == "10 bytes")
    }
}
