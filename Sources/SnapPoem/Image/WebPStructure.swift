import Foundation

/// The chunk structure of an animated WebP, read without decoding any pixels: how many
/// frames it holds, the first frame's size, and that frame alone as a still WebP.
///
/// Leptonica reads WebP through libwebp's still-image decoder, which refuses an animation
/// (a `VP8X` header with the animation flag, then `ANIM` and one `ANMF` chunk a frame): such a
/// file came out as "damaged". A GIF animation gives its first frame with a warning, and so
/// does this: the first `ANMF` chunk holds a complete image (an optional `ALPH` chunk and a
/// `VP8 ` chunk, or a `VP8L` chunk), which is wrapped in a RIFF header of its own for
/// Leptonica. Every length is bounds-checked and each step moves forward, so malformed data
/// yields nil, never a trap or a loop.
struct WebPStructure: Equatable {
    /// The first frame's width, from its `ANMF` header.
    let firstFrameWidth: Int
    /// The first frame's height.
    let firstFrameHeight: Int
    /// How many `ANMF` chunks (frames) the file holds; a file that ends early counts the
    /// complete frames before the damage, at least 1.
    let frameCount: Int
    /// The first frame as a still WebP file.
    let firstFrame: Data

    /// Reads the structure of an animated WebP; nil for a still one (Leptonica reads it as it
    /// is), for data that is not WebP, and for an animation whose first frame is damaged.
    init?(_ bytes: Data) {
        guard let found = bytes.withUnsafeBytes({ raw in Self.walk(raw.bindMemory(to: UInt8.self)) }) else { return nil }
        self = found
    }

    private init(firstFrameWidth: Int, firstFrameHeight: Int, frameCount: Int, firstFrame: Data) {
        self.firstFrameWidth = firstFrameWidth
        self.firstFrameHeight = firstFrameHeight
        self.frameCount = frameCount
        self.firstFrame = firstFrame
    }

    /// The `VP8X` flag of an animation.
    private static let animationFlag: UInt8 = 0x02
    /// The `VP8X` flag of an image with alpha.
    private static let alphaFlag: UInt8 = 0x10

    /// A chunk: its four-letter name and where its payload lies.
    private struct Chunk {
        let name: [UInt8]
        let payload: Range<Int>
    }

    /// The chunks of `data` from `start` to `end`, in order; stops at the first that does not
    /// fit (damage), keeping those before it.
    private static func chunks(_ data: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [Chunk] {
        var found: [Chunk] = []
        var position = start
        while position + 8 <= end {
            let size =
                Int(data[position + 4]) | Int(data[position + 5]) << 8 | Int(data[position + 6]) << 16 | Int(data[position + 7]) << 24
            let payloadStart = position + 8
            guard size <= end - payloadStart else { break }
            found.append(Chunk(name: Array(data[position..<position + 4]), payload: payloadStart..<payloadStart + size))
            // Chunks are padded to an even length.
            position = payloadStart + size + (size & 1)
        }
        return found
    }

    /// The walk itself, over the bytes in place (no copy: a file may be large).
    private static func walk(_ data: UnsafeBufferPointer<UInt8>) -> WebPStructure? {
        guard data.count >= 30, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        let top = chunks(data, from: 12, to: data.count)
        guard let header = top.first, header.name.elementsEqual("VP8X".utf8), header.payload.count >= 10,
            data[header.payload.lowerBound] & animationFlag != 0
        else { return nil }
        let frames = top.filter { $0.name.elementsEqual("ANMF".utf8) }
        guard let first = frames.first, first.payload.count > 16 else { return nil }
        func u24(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 }
        let width = u24(first.payload.lowerBound + 6) + 1
        let height = u24(first.payload.lowerBound + 9) + 1
        // The frame's own chunks: ALPH then VP8, or VP8L (unknown chunks are skipped).
        let inner = chunks(data, from: first.payload.lowerBound + 16, to: first.payload.upperBound)
        let alpha = inner.first { $0.name.elementsEqual("ALPH".utf8) }
        guard let bitstream = inner.first(where: { $0.name.elementsEqual("VP8 ".utf8) || $0.name.elementsEqual("VP8L".utf8) })
        else { return nil }
        var body = Data("WEBP".utf8)
        func append(_ chunk: Chunk) {
            body.append(contentsOf: chunk.name)
            body.append(contentsOf: littleEndian(chunk.payload.count, bytes: 4))
            body.append(contentsOf: data[chunk.payload])
            if chunk.payload.count & 1 == 1 { body.append(0) }
        }
        if let alpha, bitstream.name.elementsEqual("VP8 ".utf8) {
            // A lossy frame with alpha needs the extended header that says so.
            body.append(contentsOf: Array("VP8X".utf8) + littleEndian(10, bytes: 4) + [alphaFlag, 0, 0, 0])
            body.append(contentsOf: littleEndian(width - 1, bytes: 3) + littleEndian(height - 1, bytes: 3))
            append(alpha)
        }
        append(bitstream)
        var file = Data("RIFF".utf8)
        file.append(contentsOf: littleEndian(body.count, bytes: 4))
        file.append(body)
        return WebPStructure(firstFrameWidth: width, firstFrameHeight: height, frameCount: frames.count, firstFrame: file)
    }

    /// `value` in `bytes` little-endian bytes.
    private static func littleEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
