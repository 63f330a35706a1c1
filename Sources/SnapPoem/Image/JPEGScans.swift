import Foundation

/// Counts the scans of a JPEG (its `SOS` markers) by walking its segments, without decoding.
///
/// A progressive JPEG is decoded scan by scan, and each scan costs the decoder a pass over
/// the whole image's coefficients, however few bytes it takes: a scan that is one run of
/// empty blocks is about 16 bytes. libjpeg-turbo sets no limit of its own, and Leptonica
/// reads every scan before it returns, so a 286 KB file of 6,000 such scans held the
/// decoder for 9.3 s (a 16-megapixel image; the same image with its 10 scans: 0.32 s), and
/// no time limit of snap-poem's can stop a decoder once it runs. A file over
/// `ImageDecoder.maximumJPEGScans` is refused before it is decoded.
enum JPEGScans {
    /// The scans in `data`, counted up to `limit + 1` at most (the walk stops there); nil
    /// when `data` does not start as a JPEG.
    ///
    /// Segments are skipped by their lengths; after a scan's header, its entropy-coded data
    /// runs to the next marker (`FF` followed by anything but `00`, a restart marker, or
    /// more `FF`). Damage ends the walk with the scans counted so far; the decoder reports it.
    static func count(in data: Data, upTo limit: Int) -> Int? {
        data.withUnsafeBytes { count(in: $0, upTo: limit) }
    }

    private static func count(in bytes: UnsafeRawBufferPointer, upTo limit: Int) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var scans = 0
        var offset = 2
        while offset + 1 < bytes.count, scans <= limit {
            guard bytes[offset] == 0xFF else { return scans }
            // Fill bytes: any number of FF before the marker.
            while offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
            guard offset + 1 < bytes.count else { return scans }
            let marker = bytes[offset + 1]
            offset += 2
            switch marker {
            case 0xD9:  // end of image
                return scans
            case 0xD0...0xD7, 0x01:  // restart markers and TEM carry no length
                continue
            default:
                guard offset + 2 <= bytes.count else { return scans }
                let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                guard length >= 2, offset + length <= bytes.count else { return scans }
                offset += length
                guard marker == 0xDA else { continue }
                scans += 1
                // The entropy-coded data, up to the next marker that is not a restart (memchr
                // finds each FF: a file may be hundreds of megabytes).
                let base = bytes.baseAddress!
                while offset + 1 < bytes.count {
                    guard let found = memchr(base + offset, 0xFF, bytes.count - offset) else { return scans }
                    offset = base.distance(to: UnsafeRawPointer(found))
                    guard offset + 1 < bytes.count else { return scans }
                    let next = bytes[offset + 1]
                    if next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { break }
                    offset += 1
                }
            }
        }
        return scans
    }
}
