import Foundation

/// The block structure of a GIF, read without decoding any pixels: the first frame's size,
/// where its data ends, and how many frames the file holds.
///
/// Leptonica learns a GIF's size only by decoding it whole, every frame of an animation
/// included (giflib's `DGifSlurp`), so a 30000×30000 GIF cost gigabytes before it could be
/// refused. This walk reads the screen descriptor, then each block: extensions and image
/// descriptors with their colour tables and data sub-blocks. Every length is bounds-checked
/// and each step moves forward, so malformed data yields nil, never a trap or a loop.
struct GIFStructure: Equatable {
    /// The first frame's width, from its image descriptor.
    let firstFrameWidth: Int
    /// The first frame's height.
    let firstFrameHeight: Int
    /// The offset just past the first frame's last data sub-block.
    let firstFrameEnd: Int
    /// How many frames (image descriptors) the file holds; a file that ends early counts
    /// the complete frames before the damage, at least 1.
    let frameCount: Int

    /// Reads the structure; nil when the data is not a GIF or ends before the first frame's
    /// data does.
    init?(_ bytes: Data) {
        guard let found = bytes.withUnsafeBytes({ raw in Self.walk(raw.bindMemory(to: UInt8.self)) }) else { return nil }
        self = found
    }

    private init(firstFrameWidth: Int, firstFrameHeight: Int, firstFrameEnd: Int, frameCount: Int) {
        self.firstFrameWidth = firstFrameWidth
        self.firstFrameHeight = firstFrameHeight
        self.firstFrameEnd = firstFrameEnd
        self.frameCount = frameCount
    }

    /// The walk itself, over the bytes in place (no copy: a GIF may be large).
    private static func walk(_ data: UnsafeBufferPointer<UInt8>) -> GIFStructure? {
        guard data.count >= 13, data.starts(with: Array("GIF8".utf8)) else { return nil }
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        var position = 13
        let screenFlags = data[10]
        if screenFlags & 0x80 != 0 { position += 3 << (Int(screenFlags & 0x07) + 1) }
        var first: (width: Int, height: Int, end: Int)?
        var frames = 0
        scan: while position < data.count {
            switch data[position] {
            case 0x21:  // extension: label, then sub-blocks
                guard let end = skipSubBlocks(data, from: position + 2) else { break scan }
                position = end
            case 0x2C:  // image descriptor, optional local colour table, LZW size, sub-blocks
                guard position + 10 <= data.count else { break scan }
                let width = u16(position + 5), height = u16(position + 7)
                let flags = data[position + 9]
                var next = position + 10
                if flags & 0x80 != 0 { next += 3 << (Int(flags & 0x07) + 1) }
                guard let end = skipSubBlocks(data, from: next + 1) else { break scan }
                frames += 1
                if first == nil { first = (width, height, end) }
                position = end
            default:  // 0x3B trailer, or anything else: the end
                break scan
            }
        }
        guard let first, first.width > 0, first.height > 0 else { return nil }
        return GIFStructure(
            firstFrameWidth: first.width, firstFrameHeight: first.height, firstFrameEnd: first.end, frameCount: max(1, frames))
    }

    /// The offset after the sub-blocks starting at `start` (each a length byte and that many
    /// bytes; a zero length ends them), or nil when the data ends first.
    private static func skipSubBlocks(_ data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = start
        while position < data.count {
            let length = Int(data[position])
            position += 1
            if length == 0 { return position }
            position += length
        }
        return nil
    }

    /// The file cut after its first frame, with a trailer: what a decoder needs to read that
    /// frame alone.
    func firstFrameOnly(of data: Data) -> Data {
        var cut = Data(data.prefix(firstFrameEnd))
        cut.append(0x3B)
        return cut
    }
}
