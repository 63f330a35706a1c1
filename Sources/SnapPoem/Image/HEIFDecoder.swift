import CHeif
import CTesseract
import Foundation

/// Decodes HEIF files (HEIC, the iPhone's default, and AVIF) with libheif: the primary image,
/// upright, as 8-bit RGB or RGBA for the rest of the pipeline.
///
/// Order of work, as for every other format (`ImageDecoder`): the file's boxes are read
/// (`heif_context_read_from_memory_without_copy`, under libheif's own limits set from
/// snap-poem's: `snap_poem_heif_set_limits`), then the primary image's size
/// (`heif_image_handle_get_width`/`_height`, the size after the container's turn, from its
/// `ispe` box and transformations) is checked against `ImageLimits` by the caller, and only
/// then is anything decoded (`heif_decode_image`). A file whose coding this libheif has no
/// decoder for (`heif_have_decoder_for_format`: an AVIF where libheif was built without an
/// AV1 decoder, or Debian 13's without `libheif-plugin-dav1d`) is refused as unsupported,
/// naming the file and what to do, before its boxes are read.
///
/// libheif applies the container's rotation and mirroring (`irot`, `imir`) itself while it
/// decodes; the turn is reported as `ImageFacts.orientation` (read from the boxes by
/// `HEIFStructure`) and never applied a second time, and no EXIF orientation is read from a
/// HEIF file (the HEIF standard says the container's transformations rule). Images of more
/// than 8 bits a sample are converted to 8 bits (`convert_hdr_to_8bit`), an alpha channel is
/// kept for `ImageDecoder` to flatten onto white, and a grey image is decoded as RGB.
///
/// Each C object has one owner in one scope: the context, the image handle and the decoded
/// image are released by `defer` right after the call that made them is checked.
enum HEIFDecoder {
    /// Bytes a pixel decoding holds at its peak, as `ImageDecoder` plans it: the decoder's own
    /// planes (up to 2 bytes a sample for 10-bit HEVC or AV1, in 4:2:0 or 4:4:4), libheif's
    /// interleaved 8-bit copy, and Leptonica's 32-bit image. Measured: libheif 1.15 decoding a
    /// 4000×4000 HEIC, and an AVIF, to RGB (`heif-convert` to PNG) peaked at 7.8 bytes a pixel
    /// for both; the Leptonica image made while libheif's is alive adds 4 (`Docs/formats.md`).
    static let decodingBytesPerPixel = 12

    /// What the boxes say of the primary image, before any pixel is decoded.
    struct Header {
        /// The width once libheif has applied the container's turn.
        var width: Int
        /// The height once turned.
        var height: Int
        /// The width as stored (`ispe`), before the turn.
        var storedWidth: Int
        /// The height as stored.
        var storedHeight: Int
        /// Whether the image has an alpha channel.
        var hasAlpha: Bool
        /// The turn libheif applies (`irot`, `imir`), as the EXIF orientation that asks for it.
        var orientation: ExifOrientation
        /// How many top-level images the file holds (a burst, a collection); the primary
        /// one is read.
        var imageCount: Int
    }

    /// The installed libheif's version, e.g. `1.15.1`.
    static var version: String { String(cString: snap_poem_heif_version()) }

    /// Whether this libheif can decode the coding `coding` (`hvc1`, `av01`).
    static func hasDecoder(for coding: String) -> Bool {
        let format: heif_compression_format
        switch coding {
        case "hvc1": format = heif_compression_HEVC
        case "av01": format = heif_compression_AV1
        case "jpeg": format = heif_compression_JPEG
        case "j2k1": format = heif_compression_JPEG2000
        case "vvc1": format = heif_compression_VVC
        default: return false
        }
        guard LibrarySetup.loadHEIF() == nil else { return false }
        return snap_poem_heif_have_decoder_for_format(format) != 0
    }

    /// Reads the boxes of `data` and the primary image's size, decoding nothing.
    ///
    /// - Throws: `SnapPoemError.unsupportedImageFormat` when libheif has no decoder for the
    ///   coding or the file is an image sequence without a still image, `.corruptImage` for
    ///   boxes libheif cannot read, `.outOfMemory`.
    static func header(of data: Data, format: ImageFormat, name: String, limits: ImageLimits) throws(SnapPoemError) -> Header {
        try withPrimaryImage(of: data, format: format, name: name, limits: limits) { header, _ in .success(header) }
    }

    /// Decodes the primary image of `data`, turned as its container says, after `check` has
    /// accepted its header (`ImageDecoder` checks it against the limits there).
    ///
    /// - Returns: a 32-bit image (with 4 samples a pixel when there is alpha) and the header.
    /// - Throws: what `header(of:format:name:limits:)` throws and what `check` throws;
    ///   `.corruptImage` when the data cannot be decoded; `.outOfMemory` when libheif or
    ///   Leptonica could not allocate the image.
    static func decode(
        _ data: Data, format: ImageFormat, name: String, limits: ImageLimits,
        check: (Header) throws(SnapPoemError) -> Void
    ) throws(SnapPoemError) -> (PixImage, Header) {
        try withPrimaryImage(of: data, format: format, name: name, limits: limits) { header, handle in
            do throws(SnapPoemError) {
                try check(header)
            } catch {
                return .failure(error)
            }
            return decodePixels(handle, header: header, format: format, name: name).map { ($0, header) }
        }
    }

    /// Opens `data` with libheif and runs `body` on its primary image's header and handle,
    /// with the bytes pinned for the context's whole life (libheif reads them in place).
    private static func withPrimaryImage<T>(
        of data: Data, format: ImageFormat, name: String, limits: ImageLimits,
        _ body: (Header, OpaquePointer) -> Result<T, SnapPoemError>
    ) throws(SnapPoemError) -> T {
        guard let structure = HEIFStructure(data) else { throw .corruptImage(path: name, format: format.displayName) }
        if structure.primaryItemType == nil, structure.storedSize == nil,
            !Set(structure.compatibleBrands + [structure.majorBrand]).isDisjoint(with: HEIFStructure.sequenceBrands)
        {
            throw .unsupportedImageFormat(
                path: name,
                detail:
                    "a HEIF image sequence without a still image, which snap-poem does not read; export one frame as JPEG or PNG first"
            )
        }
        if let failure = LibrarySetup.loadHEIF() {
            if failure.hasPrefix("out of memory") { throw .outOfMemory(path: name, stage: "loading libheif") }
            throw .unsupportedImageFormat(path: name, detail: "\(format.displayName), which needs libheif: \(failure)")
        }
        guard hasDecoder(for: structure.coding) else {
            throw .unsupportedImageFormat(path: name, detail: missingDecoder(format: format, coding: structure.coding))
        }
        let result: Result<T, SnapPoemError> = data.withUnsafeBytes { raw in
            guard let context = snap_poem_heif_context_alloc() else {
                return .failure(.outOfMemory(path: name, stage: "opening the \(format.displayName) file"))
            }
            defer { snap_poem_heif_context_free(context) }
            let side = Int32(clamping: limits.maxSide)
            snap_poem_heif_set_limits(
                context, side, UInt64(limits.maxPixels), UInt64(limits.maxPixels) * UInt64(ImageLimits.plannedBytesPerPixel))
            // Decoding runs on the calling thread: a batch already runs one image a core.
            snap_poem_heif_context_set_max_decoding_threads(context, 0)
            let read = snap_poem_heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil)
            guard read.code == heif_error_Ok else {
                // libheif's own limits, set from ours, stop it at the boxes: said as for every
                // format, with the size the boxes declare.
                if read.subcode == heif_suberror_Security_limit_exceeded, let stored = structure.storedSize {
                    let turned = structure.orientation.rawValue >= ExifOrientation.leftMirrored.rawValue
                    return .failure(
                        .imageTooLarge(
                            path: name, width: turned ? stored.height : stored.width, height: turned ? stored.width : stored.height,
                            limit: "\(ImageLimits.describe(pixels: limits.maxPixels)) and \(limits.maxSide) pixels a side"))
                }
                return .failure(failure(read, format: format, name: name, stage: "reading"))
            }
            var opened: OpaquePointer?
            let primary = snap_poem_heif_context_get_primary_image_handle(context, &opened)
            guard primary.code == heif_error_Ok, let handle = opened else {
                return .failure(failure(primary, format: format, name: name, stage: "reading"))
            }
            defer { snap_poem_heif_image_handle_release(handle) }
            let width = Int(snap_poem_heif_image_handle_get_width(handle)), height = Int(snap_poem_heif_image_handle_get_height(handle))
            guard width > 0, height > 0 else { return .failure(.corruptImage(path: name, format: format.displayName)) }
            let turned = structure.orientation.rawValue >= ExifOrientation.leftMirrored.rawValue
            let stored = structure.storedSize ?? (turned ? (height, width) : (width, height))
            let header = Header(
                width: width, height: height, storedWidth: stored.width, storedHeight: stored.height,
                hasAlpha: snap_poem_heif_image_handle_has_alpha_channel(handle) != 0, orientation: structure.orientation,
                imageCount: max(1, Int(snap_poem_heif_context_get_number_of_top_level_images(context))))
            return body(header, handle)
        }
        return try result.get()
    }

    /// Decodes the handle's pixels to 8-bit interleaved RGB(A) and copies them into a
    /// Leptonica image.
    private static func decodePixels(
        _ handle: OpaquePointer, header: Header, format: ImageFormat, name: String
    ) -> Result<PixImage, SnapPoemError> {
        guard let options = snap_poem_heif_decoding_options_alloc() else {
            return .failure(.outOfMemory(path: name, stage: "decoding the \(format.displayName) image"))
        }
        defer { snap_poem_heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        let chroma = header.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        var decoded: OpaquePointer?
        let status = snap_poem_heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options)
        guard status.code == heif_error_Ok, let image = decoded else {
            return .failure(failure(status, format: format, name: name, stage: "decoding", size: (header.width, header.height)))
        }
        defer { snap_poem_heif_image_release(image) }
        let width = Int(snap_poem_heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(snap_poem_heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        // The size decoded must be the size checked.
        guard width == header.width, height == header.height,
            let plane = snap_poem_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)
        else { return .failure(.corruptImage(path: name, format: format.displayName)) }
        let samples = header.hasAlpha ? 4 : 3
        guard Int(stride) >= width * samples, let created = pixCreate(Int32(width), Int32(height), 32),
            let data = pixGetData(created)
        else {
            return .failure(.outOfMemory(path: name, stage: "decoding the \(width)×\(height) \(format.displayName) image"))
        }
        let pix = PixImage(taking: created)
        if header.hasAlpha { pixSetSpp(pix.pointer, 4) }
        let wordsPerLine = Int(pixGetWpl(pix.pointer))
        let rowBytes = Int(stride)
        // Leptonica's 32-bit pixel: red in the high byte, then green, blue and alpha.
        for row in 0..<height {
            let source = plane + row * rowBytes
            let target = data + row * wordsPerLine
            for column in 0..<width {
                let pixel = source + column * samples
                let alpha: UInt32 = samples == 4 ? UInt32(pixel[3]) : 0xFF
                target[column] = UInt32(pixel[0]) << 24 | UInt32(pixel[1]) << 16 | UInt32(pixel[2]) << 8 | alpha
            }
        }
        return .success(pix)
    }

    /// The error for a libheif call that failed while `stage` (`reading`, `decoding`).
    private static func failure(
        _ error: heif_error, format: ImageFormat, name: String, stage: String, size: (Int, Int)? = nil
    ) -> SnapPoemError {
        let message = error.message.map { String(cString: $0) } ?? ""
        if error.subcode == heif_suberror_Security_limit_exceeded {
            return .unsupportedImageFormat(
                path: name, detail: "a \(format.displayName) file over libheif's limits (\(OneLine.excerpt(message, limit: 120)))")
        }
        if error.code == heif_error_Memory_allocation_error {
            let what = size.map { "\($0.0)×\($0.1) " } ?? ""
            return .outOfMemory(path: name, stage: "\(stage) the \(what)\(format.displayName) image")
        }
        if error.subcode == heif_suberror_Unsupported_codec
            || (error.code == heif_error_Unsupported_feature && message.lowercased().contains("codec"))
        {
            return .unsupportedImageFormat(path: name, detail: missingDecoder(format: format, coding: format == .avif ? "av01" : "hvc1"))
        }
        return .corruptImage(path: name, format: format.displayName)
    }

    /// What to say when libheif has no decoder for a file's coding.
    static func missingDecoder(format: ImageFormat, coding: String) -> String {
        let codec: String
        let package: String
        switch coding {
        case "av01":
            codec = "AV1 decoder"
            package = "libheif-plugin-dav1d"
        case "hvc1":
            codec = "HEVC decoder"
            package = "libheif-plugin-libde265"
        default:
            codec = "decoder for its coding ('\(OneLine.excerpt(coding, limit: 8))')"
            package = ""
        }
        let install = package.isEmpty ? "" : " (on Debian 13, install \(package))"
        let export = format == .avif ? "export it as JPEG or PNG first" : "export the photo as JPEG first"
        return "the data is \(format.displayName), and this libheif has no \(codec)\(install); \(export)"
    }
}
