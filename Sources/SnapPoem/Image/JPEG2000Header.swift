import Foundation

/// What OpenJPEG will decode from a JPEG 2000 file, read from the file's structure before
/// any pixel is decoded.
///
/// Leptonica's own header reader cannot be trusted with this format: for a JP2 file it takes
/// the size from the first four bytes `ihdr` found anywhere in the data, so a box placed
/// before the real header (a `uuid` box, say) can declare 100×100 while the codestream,
/// which is what OpenJPEG decodes, holds 18 megapixels. Such a file passed every pixel limit.
/// This reads the size where the decoder reads it: the codestream's `SIZ` marker, in the
/// first `jp2c` box of a JP2 file (found by walking the boxes by their lengths), or at the
/// start of a bare codestream. The components come from `SIZ` too, or from a palette
/// (`pclr`) in the `jp2h` box, which OpenJPEG expands into one component per column.
///
/// OpenJPEG holds every component as 32-bit integers for the whole image, and Leptonica
/// then packs them into a 32-bit image: `decodingBytesPerPixel`, 16 bytes for RGB
/// (measured: 16.4 bytes a pixel of peak resident memory for a 3462×5244 RGB file, against
/// 7.0 for the same image as a PNG).
///
/// Leptonica 1.82 reads every component as if it had the first one's size. OpenJPEG does
/// not upsample, so in a file whose colour is subsampled (4:2:0, say) the second and third
/// components are a quarter of the first, and Leptonica reads far past their end: the
/// result is other memory's bytes as pixels, or a crash (`hasMixedSampling`).
struct JPEG2000Header: Equatable {
    /// The image's width and height on the reference grid (`Xsiz − XOsiz`, `Ysiz − YOsiz`).
    let width: Int
    let height: Int
    /// The components OpenJPEG decodes: `Csiz`, or a palette's columns.
    let components: Int
    /// Whether some component is sampled otherwise than the first (`XRsiz`, `YRsiz`), so that
    /// their sizes differ.
    let hasMixedSampling: Bool

    /// Bytes a pixel while the image is decoded: 4 for each component and 4 for the image
    /// they are packed into.
    var decodingBytesPerPixel: Int { 4 * components + 4 }

    /// The JP2 signature box, which a JP2 file starts with; a bare codestream starts with
    /// `SOC` then `SIZ` (`FF4F FF51`).
    private static let signature: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// Reads the header; nil when the structure cannot be followed to a `SIZ` marker or
    /// declares an empty image.
    init?(_ data: Data) {
        guard let header = data.withUnsafeBytes({ Self.read($0) }) else { return nil }
        self = header
    }

    init(width: Int, height: Int, components: Int, hasMixedSampling: Bool) {
        self.width = width
        self.height = height
        self.components = components
        self.hasMixedSampling = hasMixedSampling
    }

    /// The header in `bytes`, read in place (a file may be hundreds of megabytes).
    private static func read(_ bytes: UnsafeRawBufferPointer) -> JPEG2000Header? {
        if bytes.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            return codestreamHeader(bytes, at: 0, paletteColumns: nil)
        }
        guard bytes.starts(with: signature) else { return nil }
        var paletteColumns: Int?
        var offset = 0
        while let current = box(in: bytes, at: offset) {
            if current.type == "jp2h" {
                var inner = current.contentStart
                while inner < current.end, let child = box(in: bytes, at: inner, end: current.end) {
                    if child.type == "pclr", child.contentStart + 3 <= child.end {
                        paletteColumns = Int(bytes[child.contentStart + 2])
                    }
                    inner = child.end
                }
            } else if current.type == "jp2c" {
                return codestreamHeader(bytes, at: current.contentStart, paletteColumns: paletteColumns)
            }
            offset = current.end
        }
        return nil
    }

    /// A box at `offset`: its four-letter type and where its content starts and ends
    /// (`LBox` 1: a 64-bit length follows; 0: the box runs to `end`). Nil for a length that
    /// does not fit.
    private static func box(
        in bytes: UnsafeRawBufferPointer, at offset: Int, end: Int? = nil
    ) -> (type: String, contentStart: Int, end: Int)? {
        let limit = end ?? bytes.count
        guard offset >= 0, offset + 8 <= limit else { return nil }
        let length = Int(bigEndian(bytes, offset, 4))
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        switch length {
        case 0:
            return (type, offset + 8, limit)
        case 1:
            guard offset + 16 <= limit else { return nil }
            let extended = bigEndian(bytes, offset + 8, 8)
            guard extended >= 16, extended <= UInt64(limit - offset) else { return nil }
            return (type, offset + 16, offset + Int(extended))
        case 8...:
            guard length <= limit - offset else { return nil }
            return (type, offset + 8, offset + length)
        default:
            return nil
        }
    }

    /// The header in the `SIZ` marker of the codestream at `offset`; a palette's columns,
    /// when the JP2 header has one, are the components decoded.
    private static func codestreamHeader(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, paletteColumns: Int?
    ) -> JPEG2000Header? {
        // SOC, SIZ, Lsiz, Rsiz, then Xsiz, Ysiz, XOsiz, YOsiz (32 bits each), four tile
        // fields, Csiz (16 bits), and per component Ssiz, XRsiz, YRsiz (a byte each).
        guard offset >= 0, offset + 42 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual([0xFF, 0x4F, 0xFF, 0x51])
        else { return nil }
        let field = { (position: Int) in Int(bigEndian(bytes, offset + position, 4)) }
        let width = field(8) - field(16), height = field(12) - field(20)
        let count = Int(bigEndian(bytes, offset + 40, 2))
        guard width > 0, height > 0, count > 0, offset + 42 + 3 * count <= bytes.count else { return nil }
        let sampling = (0..<count).map { index in
            (bytes[offset + 42 + 3 * index + 1], bytes[offset + 42 + 3 * index + 2])
        }
        guard sampling.allSatisfy({ $0.0 > 0 && $0.1 > 0 }) else { return nil }
        return JPEG2000Header(
            width: width, height: height, components: paletteColumns.map { max($0, count) } ?? count,
            hasMixedSampling: sampling.contains { $0 != sampling[0] })
    }

    /// `count` bytes at `offset` read as a big-endian number.
    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
