import CTesseract
import CTesseractShim
import Foundation
import Testing

@testable import SnapPoem

/// Inside a recognition, the line images Tesseract writes as PNG into memory are written in
/// Leptonica's uncompressed serialisation, which its reader reads back bit for bit
/// (the line-images override, `Sources/CProcessOverrides/LineImageEncoding.cpp`); outside one, a PNG is a PNG.
@Suite("Tesseract's in-memory line images skip PNG, and only they")
struct LineImageStorageTests {
    /// What `pixWriteMem(…, IFF_PNG)` writes for `pix`, as Tesseract's `ImageData` calls it.
    static func written(_ pix: PixImage, recognising: Bool) throws -> Data {
        snap_poem_hook_recognising(recognising ? 1 : 0)
        defer { snap_poem_hook_recognising(0) }
        var bytes: UnsafeMutablePointer<l_uint8>?
        var size = 0
        try #require(pixWriteMem(&bytes, &size, pix.pointer, Int32(IFF_PNG)) == 0)
        defer { lept_free(bytes) }
        return Data(bytes: try #require(bytes), count: size)
    }

    @Test("A line image written during a recognition reads back equal to the original; a PNG is written otherwise")
    func roundTrip() throws {
        // A grey line image of a real page: a strip of Lenore.png.
        let (page, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("Lenore.png"))
        let strip = try #require(try page.cropped(to: BoundingBox(left: 100, top: 300, right: 1500, bottom: 360)))
        let grey = try ImagePreprocessor.grayscale(strip).pix
        for pix in [grey, try #require(grey.otsuBinarized())] {
            let inside = try Self.written(pix, recognising: true)
            #expect(inside.prefix(4) == Data("spix".utf8), "depth \(pix.depth)")
            let read = try #require(
                inside.withUnsafeBytes { PixImage.taking(pixReadMem($0.bindMemory(to: UInt8.self).baseAddress, inside.count)) })
            var same: Int32 = 0
            #expect(pixEqual(read.pointer, pix.pointer, &same) == 0 && same == 1, "depth \(pix.depth)")
            let outside = try Self.written(pix, recognising: false)
            #expect(outside.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "depth \(pix.depth)")
        }
    }
}
