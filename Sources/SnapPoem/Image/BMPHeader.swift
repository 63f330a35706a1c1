/// The size of a BMP image, read from its header.
///
/// Leptonica's `pixReadHeaderMem` decodes a BMP whole to learn its size; this reads the two
/// fields instead, so the limits are checked before any pixel is decoded.
enum BMPHeader {
    /// Width and height (a negative height, for rows stored top-down, counts by its size);
    /// nil when the data is too short or the size is not positive.
    static func size(of data: some Collection<UInt8>) -> (width: Int, height: Int)? {
        let bytes = Array(data.prefix(26))
        guard bytes.count >= 26, bytes[0] == 0x42, bytes[1] == 0x4D else { return nil }  // "BM"
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        let headerSize = u32(14)
        let width: Int, height: Int
        if headerSize == 12 {  // BITMAPCOREHEADER: 16-bit sizes
            width = Int(UInt16(bytes[18]) | UInt16(bytes[19]) << 8)
            height = Int(UInt16(bytes[20]) | UInt16(bytes[21]) << 8)
        } else {
            width = Int(Int32(bitPattern: u32(18)))
            height = abs(Int(Int32(bitPattern: u32(22))))
        }
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }
}
