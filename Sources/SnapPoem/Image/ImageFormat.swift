import CTesseract
import Foundation

/// An image file format, as recognised from the file's first bytes (never from its name).
///
/// Leptonica decodes every format but two: HEIC (HEIF, the iPhone's default) and AVIF, which
/// libheif decodes (`HEIFDecoder`), recognised from their `ftyp` box (`HEIFStructure`).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png, jpeg, tiff, webp, bmp, gif, pnm, jpeg2000, heic, avif, spix, unknown

    /// Maps Leptonica's `IFF_*` code (from `findFileFormatBuffer`) to a format.
    init(leptonicaCode code: Int32) {
        switch Int(code) {
        case Int(IFF_PNG): self = .png
        case Int(IFF_JFIF_JPEG): self = .jpeg
        case Int(IFF_TIFF), Int(IFF_TIFF_PACKBITS), Int(IFF_TIFF_RLE), Int(IFF_TIFF_G3),
            Int(IFF_TIFF_G4), Int(IFF_TIFF_LZW), Int(IFF_TIFF_ZIP), Int(IFF_TIFF_JPEG):
            self = .tiff
        case Int(IFF_WEBP): self = .webp
        case Int(IFF_BMP): self = .bmp
        case Int(IFF_GIF): self = .gif
        case Int(IFF_PNM): self = .pnm
        case Int(IFF_JP2): self = .jpeg2000
        case Int(IFF_SPIX): self = .spix
        default: self = .unknown
        }
    }

    /// The name people use for the format, e.g. "PNG".
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .tiff: "TIFF"
        case .webp: "WebP"
        case .bmp: "BMP"
        case .gif: "GIF"
        case .pnm: "PNM"
        case .jpeg2000: "JPEG 2000"
        case .heic: "HEIC"
        case .avif: "AVIF"
        case .spix: "Leptonica SPIX"
        case .unknown: "unknown"
        }
    }

    /// The registered media type of the format, e.g. `image/png`; nil for Leptonica's own
    /// SPIX serialisation and for `unknown`, which have none.
    public var mediaType: String? { mediaTypes.first }

    /// Every media type that names the format, lowercase: the registered one first, then the
    /// names programs also send (`image/jpg`, `image/x-png`, …).
    public var mediaTypes: [String] {
        switch self {
        case .png: ["image/png", "image/x-png", "image/apng"]
        case .jpeg: ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .tiff: ["image/tiff", "image/tif", "image/x-tiff"]
        case .webp: ["image/webp"]
        case .bmp: ["image/bmp", "image/x-bmp", "image/x-ms-bmp"]
        case .gif: ["image/gif"]
        case .pnm:
            ["image/x-portable-anymap", "image/x-portable-bitmap", "image/x-portable-graymap", "image/x-portable-pixmap"]
        case .jpeg2000: ["image/jp2", "image/jpx", "image/jpm"]
        case .heic: ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"]
        case .avif: ["image/avif"]
        case .spix, .unknown: []
        }
    }

    /// The format a media type names (`image/jpg` gives `.jpeg`), compared without regard to
    /// case and parameters; nil for a type that names none of the formats.
    public init?(mediaType: String) {
        let bare = (mediaType.split(separator: ";").first.map(String.init) ?? mediaType).trimmingCharacters(in: .whitespaces)
            .lowercased()
        guard let format = Self.allCases.first(where: { $0.mediaTypes.contains(bare) }) else { return nil }
        self = format
    }
}
