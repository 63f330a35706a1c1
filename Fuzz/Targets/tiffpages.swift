// fuzz-modules: SnapPoem
//
// Multi-page TIFF bytes through `ImageDocument`: the walk of the directory chain
// (`TIFFDirectory.pages`: page count, each page's declared size, the loop and length
// bounds), the checks of page count and pixels made before decoding, then every page
// decoded on its own (the header pointed at its directory), alpha flattened. Limits are
// small (8 pages, 2 megapixels together, 1 megapixel and 2048 px a page, 64 KiB) so each
// input stays fast. Seeds: Fuzz/Corpus/tiffpages, made by SampleImages/make_format_samples.py.
import Foundation

@testable import SnapPoem

private let limits = ImageLimits(
    maxPixels: 1_000_000, maxSide: 2048, maxFileBytes: 64 << 10, maxPages: 8, maxDocumentPixels: 2_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFFPages(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(bytes: bytes, count: size)
    let pages = TIFFDirectory.pages(of: data)
    precondition(!pages.sizes.isEmpty && pages.sizes.count <= TIFFDirectory.maximumPages, "page count out of bounds")
    precondition(pages.offsets.isEmpty || pages.offsets.count == pages.sizes.count, "offsets and sizes disagree")
    precondition(pages.offsets.allSatisfy { $0 >= 0 && $0 < size }, "a directory outside the data")
    do {
        let document = try ImageDocument(data: data, name: "fuzz", limits: limits)
        precondition(document.pageCount >= 1 && document.pageCount <= limits.maxPages, "page count past the limit")
        var pixels = 0
        for number in 1...document.pageCount {
            do {
                let (image, facts) = try document.decodePage(number)
                precondition(image.width > 0 && image.height > 0 && facts.pageNumber == number, "an empty or misnumbered page")
                pixels += image.width * image.height
                precondition(pixels <= limits.maxDocumentPixels || document.pageCount == 1, "decoded past the document limit")
            } catch {
                precondition(!error.description.contains("\n"), "an error message spans two lines")
            }
        }
    } catch {
        precondition(!error.description.contains("\n"), "an error message spans two lines")
    }
    return 0
}
