// fuzz-modules: SnapPoem
//
// Image bytes through everything snap-poem does before OCR: format detection, the header
// readers (Leptonica's, and snap-poem's own for GIF and BMP), the EXIF and TIFF structure
// walkers, decoding, alpha removal and the EXIF turn, then one preprocessing step.
// Limits are small (1 megapixel, 2048 px a side, 256 KiB) so each input stays fast.
import Foundation

@testable import SnapPoem

private let limits = ImageLimits(maxPixels: 1_000_000, maxSide: 2048, maxFileBytes: 256 << 10)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(bytes: bytes, count: size)
    _ = ExifOrientation.read(fromJPEG: data)
    _ = TIFFDirectory.pageCount(of: data)
    _ = BMPHeader.size(of: data)
    if let gif = GIFStructure(data) {
        precondition(gif.firstFrameEnd <= data.count && gif.frameCount >= 1, "GIF structure out of bounds")
        _ = gif.firstFrameOnly(of: data)
    }
    _ = ImageDecoder.describeUnknownData(data)
    do {
        let (image, facts) = try ImageDecoder.decode(data: data, name: "fuzz", limits: limits)
        precondition(image.width > 0 && image.height > 0 && facts.pageCount >= 1, "decoded an empty image")
        _ = try ImagePreprocessor.grayscale(image)
    } catch {
        precondition(!error.description.contains("\n"), "an error message spans two lines")
    }
    return 0
}
