import CTesseract
import Foundation
import SnapPoem

/// Images made for the service's bounds tests with Leptonica: a page of text as large as
/// asked, and a small file that declares many pixels.
enum TestImages {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `SampleImages/<name>` tiled to fill `width` × `height`, in colour (RGB), as PNG: a page
    /// as dense with text as the sample, as large as asked.
    static func tiled(_ name: String, width: Int, height: Int) throws -> Data {
        var source = pixRead(Fixtures.sample(name))
        defer { pixDestroy(&source) }
        guard let source, var colour = Optional(pixConvertTo32(source)) else { throw Failure(description: "cannot read \(name)") }
        defer { pixDestroy(&colour) }
        guard var page = Optional(pixCreate(Int32(width), Int32(height), 32)), let target = page else {
            throw Failure(description: "cannot make a \(width)×\(height) image")
        }
        defer { pixDestroy(&page) }
        let tileWidth = Int(pixGetWidth(colour)), tileHeight = Int(pixGetHeight(colour))
        for y in stride(from: 0, to: height, by: tileHeight) {
            for x in stride(from: 0, to: width, by: tileWidth) {
                pixRasterop(target, Int32(x), Int32(y), Int32(tileWidth), Int32(tileHeight), PIX_SRC, colour, 0, 0)
            }
        }
        pixSetSpp(target, 3)
        return try png(target)
    }

    /// A white `width` × `height` PNG of one bit a pixel: a few kilobytes that declare many
    /// pixels (as a 600 KB photo of a blank page may).
    static func blank(width: Int, height: Int) throws -> Data {
        guard var page = Optional(pixCreate(Int32(width), Int32(height), 1)), let target = page else {
            throw Failure(description: "cannot make a \(width)×\(height) image")
        }
        defer { pixDestroy(&page) }
        return try png(target)
    }

    /// `png` grown to `size` bytes by a private ancillary chunk before its end (`prVt`, which
    /// decoders skip): an upload as large as a limit allows, that still decodes.
    static func padded(_ png: Data, to size: Int) -> Data {
        let end = png.count - 12  // the IEND chunk
        let length = max(0, size - png.count - 12)
        var chunk = Data()
        chunk.append(contentsOf: withUnsafeBytes(of: UInt32(length).bigEndian, Array.init))
        let body = Data("prVt".utf8) + Data(repeating: 0, count: length)
        chunk.append(body)
        chunk.append(contentsOf: withUnsafeBytes(of: crc32(body).bigEndian, Array.init))
        return png[..<end] + chunk + png[end...]
    }

    /// The CRC-32 of PNG chunks (ISO 3309).
    static func crc32(_ data: Data) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func png(_ pix: PixPointer) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemPng(&bytes, &size, pix, 0) == 0, let bytes else { throw Failure(description: "cannot write a PNG") }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}
