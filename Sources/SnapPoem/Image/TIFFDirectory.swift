import Foundation

/// Counts the pages (image file directories) of a TIFF, reading only its structure.
///
/// Every offset is bounds-checked and the chain of directories is followed at most
/// `maximumPages` times, so a malformed or looping file yields a count, never a trap.
enum TIFFDirectory {
    /// The most directories followed; a longer chain is reported as this many pages.
    static let maximumPages = 10_000

    /// The number of pages in `bytes`, at least 1 (the decoder has already read page 1).
    /// Reads the bytes in place (no copy: a TIFF may be hundreds of megabytes).
    static func pageCount(of bytes: Data) -> Int {
        bytes.withUnsafeBytes { raw in pageCount(of: raw.bindMemory(to: UInt8.self)) }
    }

    /// The number of pages in a small byte sequence (copied first), for tests.
    static func pageCount(of bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { pageCount(of: $0) }
    }

    /// The number of pages in `data`, at least 1.
    static func pageCount(of data: UnsafeBufferPointer<UInt8>) -> Int {
        guard let reader = Reader(data), reader.u16(2) == 42, var next = reader.u32(4) else { return 1 }  // classic TIFF only
        var pages = 0
        var visited = Set<Int>()
        while next != 0, pages < maximumPages, visited.insert(next).inserted, let entries = reader.u16(next) {
            pages += 1
            guard let following = reader.u32(next + 2 + entries * 12) else { break }
            next = following
        }
        return max(1, pages)
    }

    /// Whether the first page is JPEG-compressed (`Compression` 6 or 7): libjpeg then holds
    /// its coefficients, 2 bytes a sample, on top of libtiff's buffers. False when it cannot
    /// be told.
    static func isJPEGCompressed(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let reader = Reader(raw.bindMemory(to: UInt8.self)), reader.u16(2) == 42, let first = reader.u32(4),
                let entries = reader.u16(first)
            else { return false }
            for index in 0..<min(entries, 4096) {
                let entry = first + 2 + index * 12
                // Compression is a SHORT, held in the first two bytes of the value field.
                if reader.u16(entry) == 259, reader.u16(entry + 2) == 3, let value = reader.u16(entry + 8) {
                    return value == 6 || value == 7
                }
            }
            return false
        }
    }

    /// Bounds-checked reads of a TIFF's numbers, in the byte order its header names.
    private struct Reader {
        let data: UnsafeBufferPointer<UInt8>
        let littleEndian: Bool

        /// Nil when `data` does not start with a TIFF byte-order mark.
        init?(_ data: UnsafeBufferPointer<UInt8>) {
            guard data.count >= 8 else { return nil }
            switch (data[0], data[1]) {
            case (0x49, 0x49): littleEndian = true
            case (0x4D, 0x4D): littleEndian = false
            default: return nil
            }
            self.data = data
        }

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= data.count else { return nil }
            let a = Int(data[offset]), b = Int(data[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }

        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
    }
}
