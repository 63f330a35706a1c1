import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// A sample image made harder inside a test: read grey, edited pixel by pixel, encoded as PNG.
enum EditedSample {
    /// `SampleImages/<name>` decoded and turned to 8-bit grey as the pipeline does
    /// (`ImageDecoder`, `ImagePreprocessor.grayscale`), handed to `edit` with its width and
    /// height, and returned as PNG bytes (`PoemImage.encoded(as:)`).
    static func png(_ name: String, edit: (PixPointer, Int32, Int32) -> Void) throws -> Data {
        let (decoded, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(name))
        let grey = try ImagePreprocessor.grayscale(decoded)
        edit(grey.pix.pointer, Int32(grey.width), Int32(grey.height))
        return try #require(grey.encoded(as: .png))
    }
}
