import Foundation

/// Counts the pages (image file directories) of a TIFF and reads each one's size, reading
/// only its structure: what a multi-page TIFF is checked against (`ImageLimits.maxPages`,
/// `ImageLimits.maxDocumentPixels`) before any page is decoded.
///
/// Every offset is bounds-checked and the chain of directories is followed at most
/// `maximumPages` times, so a malformed or looping file yields a count, never a trap.
enum TIFFDirectory {
    /// The most directories followed; a longer chain is reported as this many pages.
    static let maximumPages = 100_000

    /// The pages found by `pages(of:)`: each one's size where its directory says it (nil
    /// where it does not, in a form this walk reads), and whether the chain went on past
    /// `maximumPages`.
    struct Pages: Equatable {
        /// Each page's width and height, in order; nil for a page whose size could not be read.
        var sizes: [Size?]
        /// Whether more directories followed the last one counted.
        var continues: Bool
        /// Where each page's directory starts in the file.
        var offsets: [Int] = []
        /// Whether the file is little-endian (`II`).
        var littleEndian = true

        /// A page's size.
        struct Size: Equatable {
            var width: Int
            var height: Int
        }
    }

    /// The pages of `bytes` and their sizes (at least one page, which may have no size).
    static func pages(of bytes: Data) -> Pages {
        bytes.withUnsafeBytes { raw in pages(of: raw.bindMemory(to: UInt8.self)) }
    }

    /// `pages(of:)` over a small byte sequence, for tests.
    static func pages(of bytes: [UInt8]) -> Pages {
        bytes.withUnsafeBufferPointer { pages(of: $0) }
    }

    /// The walk: each directory's ImageWidth (256) and ImageLength (257), SHORT or LONG.
    static func pages(of data: UnsafeBufferPointer<UInt8>) -> Pages {
        guard let reader = Reader(data), reader.u16(2) == 42, var next = reader.u32(4) else {
            return Pages(sizes: [nil], continues: false)
        }
        var sizes: [Pages.Size?] = []
        var offsets: [Int] = []
        var visited = Set<Int>()
        while next != 0, visited.insert(next).inserted, let entries = reader.u16(next) {
            guard sizes.count < maximumPages else {
                return Pages(sizes: sizes, continues: true, offsets: offsets, littleEndian: reader.littleEndian)
            }
            offsets.append(next)
            var width: Int?, height: Int?
            for index in 0..<min(entries, 4096) {
                let entry = next + 2 + index * 12
                guard let tag = reader.u16(entry), tag == 256 || tag == 257, let type = reader.u16(entry + 2),
                    reader.u32(entry + 4) == 1
                else { continue }
                let value = type == 3 ? reader.u16(entry + 8) : type == 4 ? reader.u32(entry + 8) : nil
                if tag == 256 { width = value } else { height = value }
            }
            if let width, let height, width > 0, height > 0 {
                sizes.append(Pages.Size(width: width, height: height))
            } else {
                sizes.append(nil)
            }
            guard let following = reader.u32(next + 2 + entries * 12) else { break }
            next = following
        }
        return Pages(
            sizes: sizes.isEmpty ? [nil] : sizes, continues: false, offsets: sizes.isEmpty ? [] : offsets,
            littleEndian: reader.littleEndian)
    }

    /// `data` with its header pointing at the directory at `offset`, so that a reader of the
    /// first page reads that one: each page of a multi-page TIFF is read on its own this way,
    /// without walking (or being stopped by) the directories before it, as Leptonica's
    /// `pixReadMemTiff` would (`TIFFReadDirectory` on each).
    static func startingAt(_ offset: Int, of data: Data, littleEndian: Bool) -> Data {
        var copy = data
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: offset >> (8 * (littleEndian ? $0 : 3 - $0))) }
        copy.replaceSubrange(copy.startIndex + 4..<copy.startIndex + 8, with: bytes)
        return copy
    }

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
