import CTesseract
import Foundation

/// A decoded image, upright, ready for preprocessing or recognition.
///
/// A value type over an immutable, uniquely owned Leptonica image: copies are cheap and safe
/// to send between tasks. Every transformation (`Image/ImagePreprocessor.swift`) returns a
/// new `PoemImage`; none modifies the original, and no C type appears in this API.
public struct PoemImage: Sendable, Equatable {
    let pix: PixImage

    init(pix: PixImage) {
        self.pix = pix
    }

    /// Width in pixels.
    public var width: Int { pix.width }
    /// Height in pixels.
    public var height: Int { pix.height }
    /// Bits per pixel (1 for black and white, 8 for grey, 32 for colour).
    public var bitsPerPixel: Int { pix.depth }

    /// A uniform 8-bit grey image (`pixCreate`, `pixSetAllGray`); for tests and callers'
    /// own fixtures. Nil for a side under 1 or an image Leptonica cannot allocate.
    static func filled(width: Int, height: Int, gray: UInt8 = 255) -> PoemImage? {
        guard width >= 1, height >= 1, width <= Int(Int32.max), height <= Int(Int32.max),
            let pix = PixImage.taking(pixCreate(Int32(width), Int32(height), 8))
        else { return nil }
        pixSetAllGray(pix.pointer, Int32(gray))
        return PoemImage(pix: pix)
    }

    /// Two images are equal when they have the same size, depth and pixels (`pixEqual`).
    public static func == (lhs: PoemImage, rhs: PoemImage) -> Bool {
        if lhs.pix === rhs.pix { return true }
        var same: Int32 = 0
        return pixEqual(lhs.pix.pointer, rhs.pix.pointer, &same) == 0 && same != 0
    }

    /// Encodes the image as PNG (`pixWriteMem`), e.g. to save exactly what Tesseract saw.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` (named `SnapPoemError.unnamedImage`) when
    ///   Leptonica cannot encode it, which for a valid image means memory ran out.
    public func pngData() throws(SnapPoemError) -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pixWriteMem(&bytes, &size, pix.pointer, Int32(IFF_PNG))
        guard status == 0, let bytes else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "encoding the \(width)×\(height) image as PNG")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}

/// Facts about a decoded image, reported in results and the JSON export.
public struct ImageFacts: Sendable, Equatable, Codable {
    /// The format found from the file's bytes.
    public var format: ImageFormat
    /// Width of the file's stored pixels.
    public var storedWidth: Int
    /// Height of the file's stored pixels.
    public var storedHeight: Int
    /// The EXIF orientation that was applied while decoding (`up` when there was none).
    public var orientation: ExifOrientation
    /// How many pages (or frames) the file holds: more than 1 for a multi-page TIFF, each of
    /// whose pages is read (`ImageDocument`), or an animated GIF or WebP, of which the
    /// first frame is read.
    public var pageCount: Int
    /// Which page of the file this image is, from 1 (`ImageDocument.decodePage(_:)`).
    public var pageNumber: Int = 1
    /// Problems the decoder worked around, one sentence each, e.g. a JPEG that ends early.
    public var warnings: [String]

    /// Creates a record of an image's facts.
    public init(
        format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: ExifOrientation,
        pageCount: Int = 1, pageNumber: Int = 1, warnings: [String] = []
    ) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.pageCount = pageCount
        self.pageNumber = pageNumber
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey { case format, storedWidth, storedHeight, orientation, pageCount, pageNumber, warnings }

    /// Reads facts; `pageNumber`, added later, is 1 when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(ImageFormat.self, forKey: .format)
        storedWidth = try container.decode(Int.self, forKey: .storedWidth)
        storedHeight = try container.decode(Int.self, forKey: .storedHeight)
        orientation = try container.decode(ExifOrientation.self, forKey: .orientation)
        pageCount = try container.decode(Int.self, forKey: .pageCount)
        pageNumber = try container.decodeIfPresent(Int.self, forKey: .pageNumber) ?? 1
        warnings = try container.decode([String].self, forKey: .warnings)
    }
}

/// Bounds checked against an image's header before any pixel is decoded, so that a huge or
/// hostile file is refused with a message rather than exhausting memory.
public struct ImageLimits: Sendable, Equatable, Codable {
    /// The most pixels (width × height) an image may have. Default: 150 megapixels (a 108 MP
    /// phone photo passes). Planned at `plannedBytesPerPixel`: an image whose decoder holds
    /// more a pixel (a JPEG 2000: 4 bytes a component and 4 more, 16 for RGB; a TIFF of
    /// 16-bit samples) may have proportionally fewer.
    public var maxPixels: Int
    /// The longest side allowed, in pixels. Default 65 000.
    public var maxSide: Int

    /// The most bytes an input may hold, file or standard input. Default 512 MiB: enough
    /// for an uncompressed RGB scan at the pixel limit; every photo is far smaller. A larger
    /// file is refused from its size, before it is read; standard input is read up to it.
    public var maxFileBytes: Int

    /// The most pages a multi-page TIFF may have, counted from its structure before any page
    /// is decoded. Default 100: a scanner's booklet or a fax has a few dozen; a file of more
    /// is refused whole, naming the count and the limit (split it with `tiffsplit` and read
    /// the parts as a batch).
    public var maxPages: Int

    /// The most pixels all the pages of a multi-page TIFF may have together, from the sizes
    /// their directories declare, before any page is decoded. Default 1000 megapixels: 100
    /// A4 pages scanned at 300 dpi (8.7 megapixels each) pass; each page is also held to
    /// `maxPixels` and `maxSide`. Pages are decoded one at a time, so this bounds the time a
    /// file takes (about 3 s a page of print), not the memory.
    public var maxDocumentPixels: Int

    /// Creates limits; all must be positive.
    public init(
        maxPixels: Int = 150_000_000, maxSide: Int = 65_000, maxFileBytes: Int = 512 << 20, maxPages: Int = 100,
        maxDocumentPixels: Int = 1_000_000_000
    ) {
        precondition(
            maxPixels > 0 && maxSide > 0 && maxFileBytes > 0 && maxPages > 0 && maxDocumentPixels > 0, "image limits must be positive")
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxFileBytes = maxFileBytes
        self.maxPages = maxPages
        self.maxDocumentPixels = maxDocumentPixels
    }

    enum CodingKeys: String, CodingKey { case maxPixels, maxSide, maxFileBytes, maxPages, maxDocumentPixels }

    /// Reads limits; `maxPages` and `maxDocumentPixels`, added later, take their defaults
    /// when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            maxPixels: try container.decode(Int.self, forKey: .maxPixels), maxSide: try container.decode(Int.self, forKey: .maxSide),
            maxFileBytes: try container.decode(Int.self, forKey: .maxFileBytes),
            maxPages: try container.decodeIfPresent(Int.self, forKey: .maxPages) ?? 100,
            maxDocumentPixels: try container.decodeIfPresent(Int.self, forKey: .maxDocumentPixels) ?? 1_000_000_000)
    }

    /// The defaults described above.
    public static let standard = ImageLimits()

    /// Peak bytes a pixel that reading one image takes, from decoding to recognition:
    /// measured on dense pages of text, RGB PNG, read by two engines (9–13 bytes a pixel).
    /// Most decoders hold less than this a pixel while they run (JPEG 4, progressive JPEG
    /// up to 12, PNG and WebP 8, TIFF 11 for 8-bit RGB), and free it before the rest begins;
    /// `maxPixels` is planned at it (the HTTP service's `MemoryPlan` too).
    public static let plannedBytesPerPixel = 13

    /// A pixel count as messages show it, the same in every locale: `"150 megapixels"`,
    /// `"15.1 megapixels"`, `"1 megapixel"`; below a tenth of a megapixel, the pixels
    /// themselves (`"10000 pixels"`), which one decimal would show as nothing.
    public static func describe(pixels count: Int) -> String {
        guard count >= 100_000 else { return "\(count) \(count == 1 ? "pixel" : "pixels")" }
        let tenths = (count + 50_000) / 100_000
        let amount = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(amount) \(amount == "1" ? "megapixel" : "megapixels")"
    }
}
