import CTesseract
import Foundation

/// Decodes image files with Leptonica, after checking them, and turns them upright.
///
/// Order of work: read the bytes (the file is only ever read; only regular files, and at
/// most `ImageLimits.maxFileBytes`; see `InputFile`), recognise the format from the first
/// bytes, read the header and check it against `ImageLimits`, decode (`pixReadMem`),
/// flatten any alpha channel onto white, then apply the JPEG's EXIF orientation, which
/// Leptonica ignores.
///
/// GIF and BMP headers are read here rather than by Leptonica, whose `pixReadHeaderMem`
/// decodes those two formats whole to learn their size; so are JPEG 2000 headers, which it
/// reads from the first bytes `ihdr` anywhere in the file rather than from the codestream
/// that is decoded (`JPEG2000Header`). The pixel limit is planned at
/// `ImageLimits.plannedBytesPerPixel`; an image whose decoder holds more a pixel (JPEG 2000:
/// 4 bytes a component and 4 more; a TIFF of 16-bit samples or CMYK) may have
/// proportionally fewer pixels. A JPEG 2000 whose colour is subsampled is refused: Leptonica
/// would read past the end of its smaller components. Of an animated GIF only the first
/// frame is decoded (the data handed to Leptonica ends after it); `ImageFacts.pageCount`
/// and a warning say how many frames there were. An animated WebP, which libwebp's
/// still-image decoder refuses, gives its first frame too (`WebPStructure`). A multi-page
/// TIFF yields its first page, with the same kind of warning.
///
/// What the codecs say while an image decodes (libjpeg's "Corrupt JPEG data: …", libpng's
/// warnings) becomes warnings of its `ImageFacts`, naming the file, instead of lines the
/// libraries print themselves (`CodecMessages`).
///
/// Damaged data fails with `SnapPoemError.corruptImage`, JPEG included: libjpeg on its own
/// would fill a truncated JPEG's missing rows with grey, but Leptonica 1.82 stops at the
/// first row libjpeg cannot deliver and returns nothing, so snap-poem never sees a
/// half-grey image. A decoder that failed because memory ran out (`errno` is `ENOMEM`, and
/// the memory to decode cannot be had: `decodingBytes(width:height:bytesPerPixel:)`) gives
/// `SnapPoemError.outOfMemory` instead.
public enum ImageDecoder {
    /// Decodes the image file at `path`; `"-"` reads standard input.
    ///
    /// - Throws: `SnapPoemError` naming the file: not found, unreadable, not a regular file,
    ///   empty, too large, not an image, damaged, over `limits`, or out of memory.
    public static func decode(
        fileAt path: String,
        limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        try decode(fileAt: path, limits: limits, shouldStop: { false })
    }

    /// `decode(fileAt:limits:)`, asking `shouldStop` while standard input is awaited
    /// (`SnapPoemError.cancelled` when it answers true).
    static func decode(
        fileAt path: String,
        limits: ImageLimits,
        shouldStop: () -> Bool
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        let data = try InputFile.read(path, limit: limits.maxFileBytes, shouldStop: shouldStop)
        return try decode(data: data, name: path == "-" ? InputFile.standardInputName : path, limits: limits)
    }

    /// Decodes image bytes; `name` is used in error messages.
    ///
    /// - Throws: `SnapPoemError` as for `decode(fileAt:limits:)`.
    public static func decode(
        data: Data,
        name: String,
        limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        let (format, header, pageCountFound, decodable, bytesPerPixel) = try inspect(
            data: data, name: name, limits: limits, preparingDecodable: true)
        var pageCount = pageCountFound
        if format == .heic || format == .avif {
            return try decodeHEIF(data, format: format, name: name, limits: limits, bytesPerPixel: bytesPerPixel)
        }
        func read() -> (PixImage?, Int32) {
            CodecMessages.decoding(format.displayName) { () -> (PixImage?, Int32) in
                errno = 0
                let decoded = decodable.withUnsafeBytes { raw in
                    PixImage.taking(pixReadMem(raw.bindMemory(to: UInt8.self).baseAddress, raw.count))
                }
                return (decoded, errno)
            }
        }
        var (decoded, decodeError) = read()
        // errno is only a hint: a failure with ENOMEM is read once more (a shortage of a
        // moment), and counts as memory only while the memory to decode is really missing.
        if decoded == nil, decodeError == ENOMEM { (decoded, decodeError) = read() }
        guard var pix = decoded, pix.width > 0, pix.height > 0 else {
            if decodeError == ENOMEM,
                !MemoryHeadroom.isAvailable(Self.decodingBytes(width: header.width, height: header.height, bytesPerPixel: bytesPerPixel))
            {
                throw .outOfMemory(path: name, stage: "decoding the \(header.width)×\(header.height) \(format.displayName) image")
            }
            throw .corruptImage(path: name, format: format.displayName)
        }
        var warnings = CodecMessages.collect().map { "the \(format.displayName) decoder said: \($0)" }
        if format == .tiff { pageCount = TIFFDirectory.pageCount(of: data) }
        if pageCount > 1 {
            warnings.append(
                format == .tiff
                    ? "the TIFF holds \(pageCount) pages; only the first is read"
                    : "the \(format.displayName) holds \(pageCount) frames; only the first is read")
        }
        let storedWidth = pix.width, storedHeight = pix.height
        do throws(SnapPoemError) {
            if pixGetSpp(pix.pointer) == 4 {
                pix = try pix.transformed("pixRemoveAlpha") { pixRemoveAlpha($0) }
            }
            let orientation = format == .jpeg ? (ExifOrientation.read(fromJPEG: data) ?? .up) : .up
            pix = try apply(orientation, to: pix)
            let facts = ImageFacts(
                format: format, storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation,
                pageCount: pageCount, warnings: warnings)
            return (PoemImage(pix: pix), facts)
        } catch {
            throw error.naming(name)
        }
    }

    /// Decodes a HEIC or AVIF file with libheif (`HEIFDecoder`), whose header `inspect`
    /// checked: the size decoded is checked once more against the size checked, the alpha
    /// channel is flattened onto white, and the container's turn, which libheif applied, is
    /// reported and not applied again.
    private static func decodeHEIF(
        _ data: Data, format: ImageFormat, name: String, limits: ImageLimits, bytesPerPixel: Int
    ) throws(SnapPoemError) -> (image: PoemImage, facts: ImageFacts) {
        var (pix, header) = try HEIFDecoder.decode(data, format: format, name: name, limits: limits) {
            header throws(SnapPoemError) in
            guard MemoryHeadroom.isAvailable(decodingBytes(width: header.width, height: header.height, bytesPerPixel: bytesPerPixel))
            else {
                throw .outOfMemory(path: name, stage: "decoding the \(header.width)×\(header.height) \(format.displayName) image")
            }
        }
        do throws(SnapPoemError) {
            if header.hasAlpha { pix = try pix.transformed("pixRemoveAlpha") { pixRemoveAlpha($0) } }
        } catch {
            throw error.naming(name)
        }
        let warnings =
            header.imageCount > 1 ? ["the \(format.displayName) holds \(header.imageCount) images; only the primary one is read"] : []
        let facts = ImageFacts(
            format: format, storedWidth: header.storedWidth, storedHeight: header.storedHeight, orientation: header.orientation,
            pageCount: header.imageCount, warnings: warnings)
        return (PoemImage(pix: pix), facts)
    }

    /// The most scans a JPEG may hold (`JPEGScans`): the limit libjpeg-turbo recommends
    /// (`TJPARAM_SCANLIMIT`, 500). A progressive JPEG from a camera or an editor has about 10.
    public static let maximumJPEGScans = 500

    /// Bytes a decoder that failed with `ENOMEM` must have been unable to get for the failure
    /// to count as memory: twice what the decoder holds a pixel (measured, as the header check
    /// counts it: 4 bytes for a baseline JPEG, a GIF, a BMP or a PNM, the decoded image at 32
    /// bits; 8 for PNG and WebP; 12 for a progressive JPEG; a TIFF 8 and its sample bytes; a
    /// JPEG 2000 decoder 4 for each component and 4 more), with `MemoryHeadroom.fixedBytes`
    /// on top.
    ///
    /// errno alone does not say it: calls that fail and are recovered from leave it set
    /// (glibc's `malloc`, for one, leaves `ENOMEM` when `brk` fails and `mmap` serves
    /// instead), and a truncated JPEG came back as out of memory twice in clean runs of the
    /// suite under load, with gigabytes free, the second time after the read once more. Under
    /// an address-space limit that really stops a decoder, this much cannot be had either.
    static func decodingBytes(width: Int, height: Int, bytesPerPixel: Int = 4) -> Int {
        2 * bytesPerPixel * width * height + MemoryHeadroom.fixedBytes
    }

    /// Makes every check `decode(data:name:limits:)` makes before a pixel is decoded: not
    /// empty, within `limits.maxFileBytes`, a format snap-poem reads (from the bytes), a
    /// readable header, and a size within `limits.maxPixels` and `limits.maxSide`. Cheap (the
    /// header only), so a server can refuse an upload this way before it waits for an engine.
    ///
    /// - Returns: the format and the size the header declares.
    /// - Throws: `SnapPoemError.emptyFile`, `.fileTooLarge`, `.unsupportedImageFormat`,
    ///   `.corruptImage` (no readable header) or `.imageTooLarge`, naming `name`.
    public static func checkHeader(
        data: Data, name: String, limits: ImageLimits = .standard
    ) throws(SnapPoemError) -> (format: ImageFormat, width: Int, height: Int) {
        let (format, header, _, _, _) = try inspect(data: data, name: name, limits: limits, preparingDecodable: false)
        return (format, header.width, header.height)
    }

    /// The checks before decoding, with what decoding needs: the format, the declared size,
    /// the number of frames or pages known from the structure, and the bytes to decode (a
    /// GIF's first frame only, a PNG without its text chunks). Those copies are made only
    /// when `preparingDecodable` (`checkHeader` needs none, and the service calls it on every
    /// upload before decoding it).
    private static func inspect(
        data: Data, name: String, limits: ImageLimits, preparingDecodable: Bool
    ) throws(SnapPoemError) -> (
        format: ImageFormat, header: (width: Int, height: Int), pageCount: Int, decodable: Data, decodingBytesPerPixel: Int
    ) {
        guard !data.isEmpty else { throw .emptyFile(path: name) }
        guard data.count <= limits.maxFileBytes else {
            throw .fileTooLarge(path: name, bytes: data.count, limit: limits.maxFileBytes)
        }
        let format = detectFormat(of: data)
        guard format != .unknown else {
            throw .unsupportedImageFormat(path: name, detail: describeUnknownData(data))
        }
        var decodable = data
        var pageCount = 1
        var decodingBytesPerPixel = 4
        let found: (width: Int, height: Int)?
        switch format {
        case .gif:
            guard let structure = GIFStructure(data) else { throw .corruptImage(path: name, format: format.displayName) }
            found = (structure.firstFrameWidth, structure.firstFrameHeight)
            pageCount = structure.frameCount
            if preparingDecodable { decodable = structure.firstFrameOnly(of: data) }
        case .bmp:
            found = BMPHeader.size(of: data)
        case .png:
            found = leptonicaHeader(of: data)
            decodingBytesPerPixel = 8  // libpng's rows and Leptonica's image, measured
            if preparingDecodable, let withoutText = PNGTextChunks.removed(from: data) { decodable = withoutText }
        case .jpeg:
            let scans = JPEGScans.count(in: data, upTo: maximumJPEGScans)
            if let scans, scans > maximumJPEGScans {
                throw .unsupportedImageFormat(
                    path: name,
                    detail:
                        "a JPEG of more than \(maximumJPEGScans) scans, which would hold its decoder for minutes whatever its size; save it again as an ordinary JPEG or PNG"
                )
            }
            found = leptonicaHeader(of: data)
            // A progressive JPEG keeps every coefficient until its last scan: up to 12 bytes
            // a pixel measured, against 4 for a baseline one.
            if let scans, scans > 1 { decodingBytesPerPixel = 12 }
        case .jpeg2000:
            guard let header = JPEG2000Header(data) else { throw .corruptImage(path: name, format: format.displayName) }
            if header.hasMixedSampling {
                throw .unsupportedImageFormat(
                    path: name,
                    detail:
                        "a JPEG 2000 image whose colour is subsampled, so that its components differ in size, which Leptonica cannot read safely; convert it to PNG first"
                )
            }
            guard header.components <= 4 else {
                throw .unsupportedImageFormat(
                    path: name, detail: "a JPEG 2000 image of \(header.components) components; 1 to 4 can be read")
            }
            found = (header.width, header.height)
            decodingBytesPerPixel = header.decodingBytesPerPixel
        case .webp:
            if let animation = WebPStructure(data) {
                // The size libwebp decodes is the one in the frame's own bitstream; the ANMF
                // header's is only a claim, and a frame that says 1×1 there can hold 16384×16384.
                guard let decoded = leptonicaHeader(of: animation.firstFrame),
                    decoded.width == animation.firstFrameWidth, decoded.height == animation.firstFrameHeight
                else { throw .corruptImage(path: name, format: format.displayName) }
                found = decoded
                pageCount = animation.frameCount
                decodable = animation.firstFrame
            } else {
                found = leptonicaHeader(of: data)
            }
            decodingBytesPerPixel = 8  // libwebp's image and Leptonica's, measured
        case .heic, .avif:
            // libheif reads the boxes and says the size (after the container's turn); nothing
            // is decoded here.
            let header = try HEIFDecoder.header(of: data, format: format, name: name, limits: limits)
            found = (header.width, header.height)
            decodingBytesPerPixel = HEIFDecoder.decodingBytesPerPixel
        case .tiff:
            let header = leptonicaHeaderWithSamples(of: data)
            found = header.map { ($0.width, $0.height) }
            if let header {
                // Leptonica's image and its own 32-bit copy, and libtiff's buffer of a whole strip
                // (one strip may be the whole image), or for a JPEG-compressed TIFF libjpeg's
                // coefficients, 2 bytes a sample: 16.0 bytes a pixel measured for 16-bit RGBA,
                // 16.1 for CMYK JPEG, 11.0 for 8-bit RGB.
                let sampleBytes = (header.samplesPerPixel * header.bitsPerSample + 7) / 8
                decodingBytesPerPixel = 8 + (TIFFDirectory.isJPEGCompressed(data) ? 2 * header.samplesPerPixel : sampleBytes)
            }
        default:
            found = leptonicaHeader(of: data)
        }
        guard let header = found else { throw .corruptImage(path: name, format: format.displayName) }
        try checkSize(
            width: header.width, height: header.height, decodingBytesPerPixel: decodingBytesPerPixel, format: format, name: name,
            limits: limits)
        return (format, header, pageCount, decodable, decodingBytesPerPixel)
    }

    /// Checks a declared size against `limits`: the pixel limit, planned at
    /// `ImageLimits.plannedBytesPerPixel`, is allowed proportionally fewer pixels for a decoder
    /// that holds more a pixel (JPEG 2000, a 16-bit or CMYK TIFF); and the side limit.
    ///
    /// - Throws: `SnapPoemError.imageTooLarge` naming `name`.
    static func checkSize(
        width: Int, height: Int, decodingBytesPerPixel: Int, format: ImageFormat, name: String, limits: ImageLimits
    ) throws(SnapPoemError) {
        let header = (width: width, height: height)
        let planned = ImageLimits.plannedBytesPerPixel
        let allowedPixels =
            decodingBytesPerPixel <= planned
            ? limits.maxPixels : Int(Double(limits.maxPixels) * Double(planned) / Double(decodingBytesPerPixel))
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > allowedPixels || max(header.width, header.height) > limits.maxSide {
            let allowed = ImageLimits.describe(pixels: allowedPixels)
            let pixelLimit =
                allowedPixels == limits.maxPixels
                ? allowed
                : "\(allowed) for a \(format.displayName) image like this one (its decoder holds \(decodingBytesPerPixel) bytes a pixel, where the limit of \(ImageLimits.describe(pixels: limits.maxPixels)) plans for \(planned))"
            throw .imageTooLarge(
                path: name, width: header.width, height: header.height, limit: "\(pixelLimit) and \(limits.maxSide) pixels a side")
        }
    }

    /// The size in Leptonica's header reader (`pixReadHeaderMem`), or nil when it cannot
    /// read one. Not for GIF and BMP, which it decodes whole to answer.
    private static func leptonicaHeader(of data: Data) -> (width: Int, height: Int)? {
        leptonicaHeaderWithSamples(of: data).map { ($0.width, $0.height) }
    }

    /// `leptonicaHeader(of:)` with the samples a pixel and bits a sample it reads.
    private static func leptonicaHeaderWithSamples(
        of data: Data
    ) -> (width: Int, height: Int, samplesPerPixel: Int, bitsPerSample: Int)? {
        data.withUnsafeBytes { raw -> (width: Int, height: Int, samplesPerPixel: Int, bitsPerSample: Int)? in
            var fileFormat: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            var bitsPerSample: Int32 = 0, samplesPerPixel: Int32 = 0, hasColormap: Int32 = 0
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            let status = pixReadHeaderMem(
                base, raw.count, &fileFormat, &width, &height, &bitsPerSample, &samplesPerPixel, &hasColormap)
            guard status == 0, width > 0, height > 0 else { return nil }
            return (Int(width), Int(height), Int(max(1, samplesPerPixel)), Int(max(1, bitsPerSample)))
        }
    }

    /// Reads a whole file, or standard input for `"-"`, without ever opening it for writing.
    static func readBytes(of path: String) throws(SnapPoemError) -> Data {
        try InputFile.read(path, limit: ImageLimits.standard.maxFileBytes)
    }

    /// The format of image bytes, recognised from their first bytes as
    /// `decode(data:name:limits:)` recognises it, without decoding anything: what a front end
    /// checks before it queues the work (the HTTP service compares it with the declared
    /// `Content-Type`).
    ///
    /// - Throws: `SnapPoemError.emptyFile` for no bytes, `.unsupportedImageFormat` (saying
    ///   what the bytes look like: a PDF, HEIC, text) for bytes no decoder here reads; `name`
    ///   is used in the messages.
    public static func format(of data: Data, name: String) throws(SnapPoemError) -> ImageFormat {
        guard !data.isEmpty else { throw .emptyFile(path: name) }
        let format = detectFormat(of: data)
        guard format != .unknown else {
            throw .unsupportedImageFormat(path: name, detail: describeUnknownData(data))
        }
        return format
    }

    /// Recognises the format from the first bytes: HEIC and AVIF from their `ftyp` box
    /// (`HEIFStructure`), every other format with Leptonica's `findFileFormatBuffer`.
    static func detectFormat(of data: Data) -> ImageFormat {
        guard data.count >= 12 else { return .unknown }
        if let heif = HEIFStructure.format(of: data) { return heif }
        var code: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            findFileFormatBuffer(raw.bindMemory(to: UInt8.self).baseAddress, &code)
        }
        return status == 0 ? ImageFormat(leptonicaCode: code) : .unknown
    }

    /// Says what non-image data looks like, for the error message.
    static func describeUnknownData(_ data: Data) -> String {
        if data.count < 12 { return "only \(data.count) bytes" }
        // Signatures first: a PDF's header line is valid text too. (HEIC and AVIF are read.)
        if data.starts(with: Array("%PDF".utf8)) {
            return "the data is a PDF; export its pages as images first, e.g. pdftoppm -r 300 -png FILE.pdf page"
        }
        let sample = data.prefix(4096)
        if let text = String(data: sample, encoding: .utf8),
            !text.unicodeScalars.contains(where: { $0.value < 0x09 || (0x0E..<0x20).contains($0.value) })
        {
            return "the data is plain text"
        }
        return "unrecognised data"
    }

    /// Turns stored pixels upright according to an EXIF orientation.
    static func apply(_ orientation: ExifOrientation, to pix: PixImage) throws(SnapPoemError) -> PixImage {
        switch orientation {
        case .up: return pix
        case .upMirrored: return try pix.transformed("pixFlipLR") { pixFlipLR(nil, $0) }
        case .down: return try pix.transformed("pixRotateOrth") { pixRotateOrth($0, 2) }
        case .downMirrored: return try pix.transformed("pixFlipTB") { pixFlipTB(nil, $0) }
        case .leftMirrored:  // transpose = turn 90° clockwise, then mirror left–right
            let turned = try pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
            return try turned.transformed("pixFlipLR") { pixFlipLR(nil, $0) }
        case .right: return try pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
        case .rightMirrored:  // transverse = turn 90° clockwise, then mirror top–bottom
            let turned = try pix.transformed("pixRotateOrth") { pixRotateOrth($0, 1) }
            return try turned.transformed("pixFlipTB") { pixFlipTB(nil, $0) }
        case .left: return try pix.transformed("pixRotateOrth") { pixRotateOrth($0, 3) }
        }
    }
}
