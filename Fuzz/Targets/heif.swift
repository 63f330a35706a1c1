// fuzz-modules: SnapPoem
//
// HEIF bytes (HEIC, AVIF) through snap-poem's box walker (`HEIFStructure`: brands, the
// primary item, ispe, irot, imir) and libheif behind `HEIFDecoder`: the boxes read under
// the limits set from snap-poem's, the size checked, then the primary image decoded, alpha
// flattened. Limits are small (1 megapixel, 2048 px a side, 64 KiB) so each input stays fast.
// Seeds: Fuzz/Corpus/heif, made by SampleImages/make_format_samples.py.
import Foundation

@testable import SnapPoem

private let limits = ImageLimits(maxPixels: 1_000_000, maxSide: 2048, maxFileBytes: 64 << 10)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(bytes: bytes, count: size)
    if let structure = HEIFStructure(data) {
        precondition(!structure.majorBrand.isEmpty && structure.compatibleBrands.count <= 64, "brands out of bounds")
        _ = structure.coding
    }
    do {
        let (image, facts) = try ImageDecoder.decode(data: data, name: "fuzz", limits: limits)
        precondition(image.width > 0 && image.height > 0 && image.width * image.height <= limits.maxPixels, "decoded past the limit")
        precondition(facts.format == .heic || facts.format == .avif || facts.format != .unknown, "decoded an unknown format")
        _ = try ImagePreprocessor.grayscale(image)
    } catch {
        precondition(!error.description.contains("\n"), "an error message spans two lines")
    }
    return 0
}
