/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be turned to appear upright.
///
/// Phones store pixels as the sensor saw them and record the turn in this tag; Leptonica
/// ignores it, so snap-poem reads it itself (`read(fromJPEG:)`) and applies it on decoding.
public enum ExifOrientation: Int, Sendable, Codable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left–right.
    case upMirrored = 2
    /// 3: turned 180°.
    case down = 3
    /// 4: mirrored top–bottom.
    case downMirrored = 4
    /// 5: mirrored along the main diagonal (transpose).
    case leftMirrored = 5
    /// 6: must be turned 90° clockwise to view.
    case right = 6
    /// 7: mirrored along the anti-diagonal (transverse).
    case rightMirrored = 7
    /// 8: must be turned 90° counter-clockwise to view.
    case left = 8

    /// Finds the orientation tag in a JPEG's APP1 "Exif" segment.
    ///
    /// Every offset is bounds-checked: malformed or hostile data yields nil, never a trap.
    /// Returns nil when the data is not a JPEG, has no EXIF block, or has no valid tag.
    public static func read(fromJPEG bytes: some Collection<UInt8>) -> ExifOrientation? {
        let data = Array(bytes.prefix(256 * 1024))  // EXIF must sit in the first segments
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= data.count {
            guard data[position] == 0xFF else { return nil }
            let marker = data[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image, start of scan
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { position += 2; continue }
            let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
            guard length >= 2, position + 2 + length <= data.count else { return nil }
            let segment = data[(position + 4)..<(position + 2 + length)]
            if marker == 0xE1, let orientation = parseExifSegment(Array(segment)) {
                return orientation
            }
            position += 2 + length
        }
        return nil
    }

    /// Parses the body of an APP1 segment: `"Exif\0\0"` then a TIFF header and IFD0.
    static func parseExifSegment(_ segment: [UInt8]) -> ExifOrientation? {
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        guard segment.count >= 14, Array(segment[0..<6]) == signature else { return nil }
        let tiff = Array(segment[6...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[offset]), b = Int(tiff[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2),
                let high = u16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifdOffset = u32(4), let count = u16(ifdOffset) else { return nil }
        for index in 0..<count {
            let entry = ifdOffset + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }  // SHORT
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
