import Foundation

/// The block structure of a GIF, read without decoding any pixels: the first frame's size,
/// where its data ends, and how many frames the file holds.
///
/// Leptonica learns a GIF's size only by decoding it whole, every frame of an animation
/// included (giflib's `DGifSlurp`), so a 30000×30000 GIF cost gigabytes before it could be
/// refused. This walk reads the screen descriptor, then each block: extensions and image
/// descriptors with their colour tables and data sub-blocks. Every length is bounds-checked
/// and each step moves forward, so malformed data yields nil, never a trap or a loop.
///
/// What is decoded is `firstFrameOnly(of:)`: the header, the first frame's graphic control
/// (its transparency) and the frame itself. giflib keeps every extension it meets before the
/// first frame, each of its sub-blocks as a record of its own and a copy (about 27 times the
/// bytes: an 8 MB comment cost 282 MB), and none of them matters to the text.
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
    /// The end of the header, screen descriptor and global colour table.
    let headerEnd: Int
    /// Where the first frame's image descriptor starts.
    let firstFrameStart: Int
    /// The last graphic control extension before the first frame, when it has the standard
    /// form (8 bytes).
    let graphicControl: Range<Int>?

    /// Reads the structure; nil when the data is not a GIF or ends before the first frame's
    /// data does.
    init?(_ bytes: Data) {
        guard let found = bytes.withUnsafeBytes({ raw in Self.walk(raw.bindMemory(to: UInt8.self)) }) else { return nil }
        self = found
    }

    private init(
        firstFrameWidth: Int, firstFrameHeight: Int, firstFrameEnd: Int, frameCount: Int, headerEnd: Int, firstFrameStart: Int,
        graphicControl: Range<Int>?
    ) {
        self.firstFrameWidth = firstFrameWidth
        self.firstFrameHeight = firstFrameHeight
        self.firstFrameEnd = firstFrameEnd
        self.frameCount = frameCount
        self.headerEnd = headerEnd
        self.firstFrameStart = firstFrameStart
        self.graphicControl = graphicControl
    }

    /// The walk itself, over the bytes in place (no copy: a GIF may be large).
    private static func walk(_ data: UnsafeBufferPointer<UInt8>) -> GIFStructure? {
        guard data.count >= 13, data.starts(with: Array("GIF8".utf8)) else { return nil }
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        var position = 13
        let screenFlags = data[10]
        if screenFlags & 0x80 != 0 { position += 3 << (Int(screenFlags & 0x07) + 1) }
        let headerEnd = position
        var first: (width: Int, height: Int, start: Int, end: Int)?
        var graphicControl: Range<Int>?
        var frames = 0
        scan: while position < data.count {
            switch data[position] {
            case 0x21:  // extension: label, then sub-blocks
                guard let end = skipSubBlocks(data, from: position + 2) else { break scan }
                if first == nil, end - position == 8, data[position + 1] == 0xF9, data[position + 2] == 4 {
                    graphicControl = position..<end
                }
                position = end
            case 0x2C:  // image descriptor, optional local colour table, LZW size, sub-blocks
                guard position + 10 <= data.count else { break scan }
                let width = u16(position + 5), height = u16(position + 7)
                let flags = data[position + 9]
                var next = position + 10
                if flags & 0x80 != 0 { next += 3 << (Int(flags & 0x07) + 1) }
                guard let end = skipSubBlocks(data, from: next + 1) else { break scan }
                frames += 1
                if first == nil { first = (width, height, position, end) }
                position = end
            default:  // 0x3B trailer, or anything else: the end
                break scan
            }
        }
        guard let first, first.width > 0, first.height > 0, headerEnd <= first.start else { return nil }
        return GIFStructure(
            firstFrameWidth: first.width, firstFrameHeight: first.height, firstFrameEnd: first.end, frameCount: max(1, frames),
            headerEnd: headerEnd, firstFrameStart: first.start, graphicControl: graphicControl)
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

    /// What a decoder needs to read the first frame alone: the header, the frame's graphic
    /// control, the frame, and a trailer; every other extension is left out.
    func firstFrameOnly(of data: Data) -> Data {
        let base = data.startIndex
        var cut = Data(data[base..<(base + headerEnd)])
        if let graphicControl { cut.append(data[(base + graphicControl.lowerBound)..<(base + graphicControl.upperBound)]) }
        cut.append(data[(base + firstFrameStart)..<(base + firstFrameEnd)])
        cut.append(0x3B)
        return cut
    }
}
