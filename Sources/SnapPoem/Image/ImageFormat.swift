import CTesseract

/// An image file format, as recognised from the file's first bytes (never from its name).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png, jpeg, tiff, webp, bmp, gif, pnm, jpeg2000, spix, unknown

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
        case .spix: "Leptonica SPIX"
        case .unknown: "unknown"
        }
    }
}
