import CTesseract
import Foundation

extension PoemImage {
    /// A file format an image can be encoded in by `encoded(as:)`.
    enum Encoding: Equatable {
        /// PNG, lossless.
        case png
        /// Baseline JPEG of a quality from 1 to 100.
        case jpeg(quality: Int)
    }

    /// The image's bytes in `encoding` (`pixWriteMem`, `pixWriteMemJpeg`); nil when Leptonica
    /// cannot encode it (out of memory, or a depth the format lacks), never a trap.
    func encoded(as encoding: Encoding) -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status: Int32
        switch encoding {
        case .png: status = pixWriteMem(&bytes, &size, pix.pointer, Int32(IFF_PNG))
        case .jpeg(let quality): status = pixWriteMemJpeg(&bytes, &size, pix.pointer, Int32(min(max(quality, 1), 100)), 0)
        }
        guard status == 0, let bytes else {
            free(bytes)
            return nil
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}
