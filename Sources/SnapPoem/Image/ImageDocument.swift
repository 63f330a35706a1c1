import CTesseract
import Foundation

/// An image file to be read page by page: a multi-page TIFF (a scanner's booklet, a fax), or
/// any other image as a document of one page.
///
/// Creating one checks the whole file before any page is decoded: the bytes (not empty,
/// within `ImageLimits.maxFileBytes`), the format, and for a TIFF its chain of directories
/// (`TIFFDirectory`, bounds-checked): at most `ImageLimits.maxPages` pages, whose declared
/// sizes hold at most `ImageLimits.maxDocumentPixels` together. `decodePage(_:)` then decodes
/// one page at a time, each checked against `maxPixels` and `maxSide` from its own header
/// first, so that memory holds one page whatever the count. A page that fails to decode
/// fails alone; the others can still be read.
///
/// ```swift
/// let document = try ImageDocument(fileAt: "booklet.tif")
/// for number in 1...document.pageCount {
///     let (image, facts) = try document.decodePage(number)
///     print("page \(facts.pageNumber): \(image.width)×\(image.height)")
/// }
/// ```
///
/// An animated GIF or WebP is a document of one page, its first frame (`ImageDecoder`); so is
/// a HEIC burst (its primary image).
public struct ImageDocument: Sendable {
    /// How the file is named in errors (its path, or `<stdin>`).
    public let name: String
    /// The format found from the bytes.
    public let format: ImageFormat
    /// How many pages are read: the TIFF's directories, or 1.
    public let pageCount: Int
    /// Each page's size as its directory declares it (TIFF pages only; nil where unknown).
    let declaredSizes: [TIFFDirectory.Pages.Size?]
    /// Each page's directory, and the byte order (TIFF pages only).
    let directories: TIFFDirectory.Pages?
    /// The file's bytes.
    let data: Data
    /// The limits each page is held to.
    public let limits: ImageLimits

    /// Opens image bytes as a document.
    ///
    /// - Throws: `SnapPoemError.emptyFile`, `.fileTooLarge`, `.unsupportedImageFormat`,
    ///   `.tooManyPages` or `.pagesTooLarge`, naming `name`.
    public init(data: Data, name: String, limits: ImageLimits = .standard) throws(SnapPoemError) {
        guard data.count <= limits.maxFileBytes else {
            throw .fileTooLarge(path: name, bytes: data.count, limit: limits.maxFileBytes)
        }
        let format = try ImageDecoder.format(of: data, name: name)
        var sizes: [TIFFDirectory.Pages.Size?] = [nil]
        var directories: TIFFDirectory.Pages?
        if format == .tiff {
            let pages = TIFFDirectory.pages(of: data)
            directories = pages
            if pages.continues || pages.sizes.count > limits.maxPages {
                let count = pages.continues ? "\(pages.sizes.count) or more" : "\(pages.sizes.count)"
                throw .tooManyPages(path: name, pages: count, limit: limits.maxPages)
            }
            sizes = pages.sizes
            if sizes.count > 1 {
                // Sizes this walk could not read are asked of libtiff, page by page (at most
                // maxPages of them), so that every page's size is known before any is decoded.
                for index in sizes.indices where sizes[index] == nil {
                    sizes[index] = Self.libtiffSize(
                        of: TIFFDirectory.startingAt(pages.offsets[index], of: data, littleEndian: pages.littleEndian))
                }
                // Declared sides go up to 2^32 each: the sum saturates rather than overflow.
                let ceiling = 1 << 60
                let total = sizes.reduce(0) { sum, size in
                    guard let size else { return sum }
                    let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
                    return overflow ? ceiling : min(ceiling, sum + min(pixels, ceiling))
                }
                if total > limits.maxDocumentPixels {
                    throw .pagesTooLarge(
                        path: name, pages: sizes.count, pixels: ImageLimits.describe(pixels: total),
                        limit: ImageLimits.describe(pixels: limits.maxDocumentPixels))
                }
            }
        }
        self.name = name
        self.format = format
        self.pageCount = sizes.count
        self.declaredSizes = sizes
        self.directories = directories
        self.data = data
        self.limits = limits
    }

    /// Opens the image file at `path` (`"-"` for standard input) as a document.
    ///
    /// - Throws: what `InputFile` throws for the file (not found, unreadable, not a regular
    ///   file, too large), then what `init(data:name:limits:)` throws.
    public init(fileAt path: String, limits: ImageLimits = .standard) throws(SnapPoemError) {
        try self.init(fileAt: path, limits: limits, shouldStop: { false })
    }

    /// `init(fileAt:limits:)`, asking `shouldStop` while standard input is awaited.
    init(fileAt path: String, limits: ImageLimits, shouldStop: () -> Bool) throws(SnapPoemError) {
        let data = try InputFile.read(path, limit: limits.maxFileBytes, shouldStop: shouldStop)
        try self.init(data: data, name: path == "-" ? InputFile.standardInputName : path, limits: limits)
    }

    /// Whether the file has more than one page.
    public var hasSeveralPages: Bool { pageCount > 1 }

    /// Decodes page `number` (from 1), upright, with its facts (`ImageFacts.pageNumber`,
    /// `pageCount`). A document of one page decodes as `ImageDecoder.decode(data:name:limits:)`.
    ///
    /// - Precondition: `number` is in `1...pageCount`.
    /// - Throws: `SnapPoemError` naming the file: `.imageTooLarge` for a page over the
    ///   limits (checked from its header first), `.corruptImage` for a page that cannot be
    ///   decoded or whose size is not the one its directory declared, `.outOfMemory`.
    public func decodePage(_ number: Int) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        precondition((1...pageCount).contains(number), "page \(number) of a document of \(pageCount)")
        guard hasSeveralPages else { return try ImageDecoder.decode(data: data, name: name, limits: limits) }
        let index = number - 1
        guard let directories, index < directories.offsets.count else { throw .corruptImage(path: name, format: format.displayName) }
        // The page on its own: the file with its header pointing at the page's directory.
        let page = TIFFDirectory.startingAt(directories.offsets[index], of: data, littleEndian: directories.littleEndian)
        guard let header = Self.libtiffHeader(of: page),
            declaredSizes[index] == nil || declaredSizes[index] == TIFFDirectory.Pages.Size(width: header.width, height: header.height)
        else { throw .corruptImage(path: name, format: format.displayName) }
        // Leptonica's images, libtiff's strip, and libjpeg's coefficients should the page be
        // JPEG-compressed (2 bytes a sample), as `ImageDecoder` counts a single TIFF.
        let sampleBytes = (header.samplesPerPixel * header.bitsPerSample + 7) / 8
        let bytesPerPixel = 8 + max(sampleBytes, 2 * header.samplesPerPixel)
        try ImageDecoder.checkSize(
            width: header.width, height: header.height, decodingBytesPerPixel: bytesPerPixel, format: format, name: name, limits: limits)
        guard
            MemoryHeadroom.isAvailable(
                ImageDecoder.decodingBytes(width: header.width, height: header.height, bytesPerPixel: bytesPerPixel) + page.count)
        else {
            throw .outOfMemory(path: name, stage: "decoding page \(number) (\(header.width)×\(header.height)) of the TIFF")
        }
        let decoded = CodecMessages.decoding(format.displayName) { () -> PixImage? in
            page.withUnsafeBytes { raw in
                PixImage.taking(pixReadMemTiff(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0))
            }
        }
        guard var pix = decoded, pix.width == header.width, pix.height == header.height else {
            throw .corruptImage(path: name, format: format.displayName)
        }
        let warnings = CodecMessages.collect().map { "the \(format.displayName) decoder said: \($0)" }
        do throws(SnapPoemError) {
            if pixGetSpp(pix.pointer) == 4 { pix = try pix.transformed("pixRemoveAlpha") { pixRemoveAlpha($0) } }
        } catch {
            throw error.naming(name)
        }
        let facts = ImageFacts(
            format: format, storedWidth: header.width, storedHeight: header.height, orientation: .up, pageCount: pageCount,
            pageNumber: number, warnings: warnings)
        return (PoemImage(pix: pix), facts)
    }

    /// The first page's size and samples from libtiff (`readHeaderMemTiff`); nil when it
    /// cannot be read.
    private static func libtiffHeader(
        of data: Data
    ) -> (width: Int, height: Int, bitsPerSample: Int, samplesPerPixel: Int)? {
        data.withUnsafeBytes { raw in
            var width: Int32 = 0, height: Int32 = 0, bits: Int32 = 0, samples: Int32 = 0, resolution: Int32 = 0
            var colormap: Int32 = 0, format: Int32 = 0
            let status = readHeaderMemTiff(
                raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0, &width, &height, &bits, &samples, &resolution,
                &colormap, &format)
            guard status == 0, width > 0, height > 0 else { return nil }
            return (Int(width), Int(height), Int(max(1, bits)), Int(max(1, samples)))
        }
    }

    /// The first page's size from libtiff, for a directory `TIFFDirectory` could not read.
    private static func libtiffSize(of data: Data) -> TIFFDirectory.Pages.Size? {
        libtiffHeader(of: data).map { TIFFDirectory.Pages.Size(width: $0.width, height: $0.height) }
    }
}
