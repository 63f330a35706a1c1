import CTesseract
import Foundation

/// Decodes image files with Leptonica, after checking them, and turns them upright.
///
/// Order of work: read the bytes (the file is only ever read), recognise the format from the
/// first bytes, read the header and check it against `ImageLimits`, decode (`pixReadMem`),
/// flatten any alpha channel onto white, then apply the JPEG's EXIF orientation, which
/// Leptonica ignores.
///
/// A multi-page TIFF yields its first page; `ImageFacts.pageCount` and a warning say how
/// many there were. Damaged data fails with `SnapPoemError.corruptImage`, JPEG included:
/// libjpeg on its own would fill a truncated JPEG's missing rows with grey, but Leptonica
/// 1.82 stops at the first row libjpeg cannot deliver and returns nothing, so snap-poem
/// never sees a half-grey image.
public enum ImageDecoder {
    /// Decodes the image file at `path`; `"-"` reads standard input.
    ///
    /// - Throws: `SnapPoemError` naming the file: not found, unreadable, empty, not an image,
    ///   damaged, or over `limits`.
    public static func decode(
        fileAt path: String,
        limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        let data = try readBytes(of: path)
        return try decode(data: data, name: path, limits: limits)
    }

    /// Decodes image bytes; `name` is used in error messages.
    ///
    /// - Throws: `SnapPoemError` as for `decode(fileAt:limits:)`.
    public static func decode(
        data: Data,
        name: String,
        limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        LibrarySetup.ensure()
        guard !data.isEmpty else { throw .emptyFile(path: name) }
        let format = detectFormat(of: data)
        guard format != .unknown else {
            throw .unsupportedImageFormat(path: name, detail: describeUnknownData(data))
        }
        let header = data.withUnsafeBytes { raw -> (width: Int, height: Int)? in
            var fileFormat: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            var bitsPerSample: Int32 = 0, samplesPerPixel: Int32 = 0, hasColormap: Int32 = 0
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            let status = pixReadHeaderMem(
                base, raw.count, &fileFormat, &width, &height, &bitsPerSample, &samplesPerPixel, &hasColormap)
            guard status == 0, width > 0, height > 0 else { return nil }
            return (Int(width), Int(height))
        }
        guard let header else { throw .corruptImage(path: name, format: format.displayName) }
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > limits.maxPixels || max(header.width, header.height) > limits.maxSide {
            let megapixels = Double(limits.maxPixels) / 1_000_000
            throw .imageTooLarge(
                path: name, width: header.width, height: header.height,
                limit: "\(megapixels.formatted(.number.precision(.fractionLength(0...1)))) megapixels and \(limits.maxSide) pixels a side")
        }
        let decoded = data.withUnsafeBytes { raw in
            PixImage.taking(pixReadMem(raw.bindMemory(to: UInt8.self).baseAddress, raw.count))
        }
        guard var pix = decoded, pix.width > 0, pix.height > 0 else {
            throw .corruptImage(path: name, format: format.displayName)
        }
        var warnings: [String] = []
        let pageCount = format == .tiff ? TIFFDirectory.pageCount(of: data) : 1
        if pageCount > 1 {
            warnings.append("the TIFF holds \(pageCount) pages; only the first is read")
        }
        let storedWidth = pix.width, storedHeight = pix.height
        if pixGetSpp(pix.pointer) == 4 {
            pix = pix.transformed("pixRemoveAlpha") { pixRemoveAlpha($0) }
        }
        let orientation = format == .jpeg ? (ExifOrientation.read(fromJPEG: data) ?? .up) : .up
        pix = apply(orientation, to: pix)
        let facts = ImageFacts(
            format: format, storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation,
            pageCount: pageCount, warnings: warnings)
        return (PoemImage(pix: pix), facts)
    }

    /// Reads a whole file, or standard input for `"-"`, without ever opening it for writing.
    static func readBytes(of path: String) throws(SnapPoemError) -> Data {
        if path == "-" {
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                throw .unreadableFile(path: "<stdin>", reason: error.localizedDescription)
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadableFile(path: path, reason: "permission denied")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    /// Recognises the format from the first bytes (`findFileFormatBuffer`).
    static func detectFormat(of data: Data) -> ImageFormat {
        guard data.count >= 12 else { return .unknown }
        var code: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            findFileFormatBuffer(raw.bindMemory(to: UInt8.self).baseAddress, &code)
        }
        return status == 0 ? ImageFormat(leptonicaCode: code) : .unknown
    }

    /// Says what non-image data looks like, for the error message.
    static func describeUnknownData(_ data: Data) -> String {
        if data.count < 12 { return "only \(data.count) bytes" }
        // Signatures first: a PDF's header line and an HEIF box are valid text too.
        if data.starts(with: Array("%PDF".utf8)) { return "the data is a PDF; export its pages as images first" }
        let brand = String(decoding: data.dropFirst(4).prefix(8), as: UTF8.self)
        if ["ftypheic", "ftypheix", "ftyphevc", "ftypmif1", "ftypmsf1"].contains(brand) {
            return "the data is HEIC, which Leptonica cannot read; export the photo as JPEG first"
        }
        if brand == "ftypavif" { return "the data is AVIF, which Leptonica cannot read; export it as JPEG or PNG first" }
        let sample = data.prefix(4096)
        if let text = String(data: sample, encoding: .utf8),
            !text.unicodeScalars.contains(where: { $0.value < 0x09 || (0x0E..<0x20).contains($0.value) })
        {
            return "the data is plain text"
        }
        return "unrecognised data"
    }

    /// Turns stored pixels upright according to an EXIF orientation.
    static func apply(_ orientation: ExifOrientation, to pix: PixImage) -> PixImage {
        switch orientation {
        case .up: return pix
        case .upMirrored: return pix.transformed("pixFlipLR") { pixFlipLR(nil, $0) }
        case .down: return pix.transformed("pixRotateOrth") { pixRotateOrth($0, 2) }
        case .downMirrored: return pix.transformed("pixFlipTB") { pixFlipTB(nil, $0) }
        case .leftMirrored:  // transpose = turn 90° clockwise, then mirror left–right
            let turned = pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
            return turned.transformed("pixFlipLR") { pixFlipLR(nil, $0) }
        case .right: return pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
        case .rightMirrored:  // transverse = turn 90° clockwise, then mirror top–bottom
            let turned = pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
            return turned.transformed("pixFlipTB") { pixFlipTB(nil, $0) }
        case .left: return pix.transformed("pixRotateOrth") { pixRotateOrth($0, 3) }
        }
    }
}
