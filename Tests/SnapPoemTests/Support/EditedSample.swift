import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// A sample image made harder inside a test: read grey, edited pixel by pixel, encoded as PNG.
enum EditedSample {
    /// `SampleImages/<name>` converted to 8-bit grey, handed to `edit` with its width and
    /// height, and returned as PNG bytes.
    static func png(_ name: String, edit: (PixPointer, Int32, Int32) -> Void) throws -> Data {
        let source = try #require(pixRead(Fixtures.sample(name)))
        var original: PixPointer? = source
        defer { pixDestroy(&original) }
        var grey: PixPointer? = pixConvertTo8(source, 0)
        defer { pixDestroy(&grey) }
        let page = try #require(grey)
        edit(page, pixGetWidth(page), pixGetHeight(page))
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        try #require(pixWriteMem(&bytes, &size, page, Int32(IFF_PNG)) == 0)
        defer { free(bytes) }
        return Data(bytes: try #require(bytes), count: size)
    }
}
