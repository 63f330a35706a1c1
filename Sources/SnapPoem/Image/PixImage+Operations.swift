import CTesseract
import CTesseractShim
import Foundation

/// Raw pixel access for the measurements in `ImageAnalysis`.
extension PixImage {
    /// Copies the pixels of an 8-bit grey image into a row-major byte array (`pixGetData`).
    ///
    /// Leptonica stores pixels in 32-bit words, most significant byte first; this undoes that.
    ///
    /// - Throws: `SnapPoemError.outOfMemory` when the copy cannot be allocated.
    func grayBytes() throws(SnapPoemError) -> [UInt8] {
        guard let pixels = grayPixels() else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "copying the pixels of a \(width)×\(height) image")
        }
        return Array(pixels.buffer)
    }

    /// The pixels of an 8-bit grey image, row-major, in a buffer from `malloc`; nil when it
    /// cannot be allocated.
    func grayPixels() -> GrayPixels? {
        precondition(depth == 8 && !hasColormap, "grayPixels needs an 8-bit grey image")
        let width = self.width, height = self.height
        let wordsPerLine = Int(pixGetWpl(pointer))
        guard let data = pixGetData(pointer), width > 0, height > 0 else { return GrayPixels(count: 0) }
        guard let pixels = GrayPixels(count: width * height) else { return nil }
        let buffer = pixels.buffer
        for y in 0..<height {
            let row = data + y * wordsPerLine
            let start = y * width
            for x in 0..<width {
                let word = row[x >> 2]
                buffer[start + x] = UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32(x & 3)))
            }
        }
        return pixels
    }

    /// The counts of an 8-bit grey image's 256 levels (`pixGetGrayHistogram`), over every
    /// `sampling`-th pixel of every `sampling`-th row; nil for another depth, a colour map, or
    /// when Leptonica cannot allocate the counts.
    func grayHistogram(sampling: Int = 1) -> [Double]? {
        guard depth == 8, !hasColormap, let numbers = pixGetGrayHistogram(pointer, Int32(max(1, sampling))) else { return nil }
        defer {
            var owned: NumaPointer? = numbers
            numaDestroy(&owned)
        }
        guard numaGetCount(numbers) == 256 else { return nil }
        return (0..<256).map { level in
            var count: Float = 0
            numaGetFValue(numbers, Int32(level), &count)
            return Double(count)
        }
    }

    /// The bounding boxes of the 8-connected black components of a 1-bit image
    /// (`pixConnComp`), as (width, height) pairs; none when memory is short (Leptonica's
    /// seed fill would use a box it could not create).
    func componentSizes() -> [(width: Int, height: Int)] {
        precondition(depth == 1, "components are found in 1-bit images")
        guard hasRoomForOperation, let boxes = pixConnComp(pointer, nil, 8) else { return [] }
        defer {
            var owned: BoxaPointer? = boxes
            boxaDestroy(&owned)
        }
        let count = Int(boxaGetCount(boxes))
        var sizes: [(width: Int, height: Int)] = []
        sizes.reserveCapacity(count)
        for index in 0..<count {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            if boxaGetBoxGeometry(boxes, Int32(index), &x, &y, &w, &h) == 0 {
                sizes.append((Int(w), Int(h)))
            }
        }
        return sizes
    }
}

/// Grey pixels in a buffer from `malloc`, freed with the value: unlike an Array, whose failed
/// allocation traps, running out of memory gives nil.
final class GrayPixels {
    /// The pixels, row by row.
    let buffer: UnsafeMutableBufferPointer<UInt8>

    /// Allocates `count` bytes; nil when `malloc` fails.
    init?(count: Int) {
        guard let bytes = malloc(max(count, 1)) else { return nil }
        buffer = UnsafeMutableBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)
    }

    deinit { free(buffer.baseAddress) }

    /// The pixel at `index`.
    subscript(index: Int) -> UInt8 { buffer[index] }
}

/// Noise removal at the scale of a stroke.
extension PixImage {
    /// The 5×5 median of an 8-bit grey image (`snap_poem_median5`): sensor noise, JPEG blocks
    /// and a screen's pixel grid, dots and lines up to two pixels across, go; a stroke three
    /// pixels or more across keeps its shape. Nil when memory is short.
    func medianFiltered() -> PixImage? {
        guard depth == 8, !hasColormap, hasRoomForOperation,
            let output = pixCreateTemplate(pointer)
        else { return nil }
        let result = PixImage(taking: output)
        guard let source = pixGetData(pointer), let target = pixGetData(output),
            snap_poem_median5(source, target, Int32(width), Int32(height), pixGetWpl(pointer)) == 0
        else { return nil }
        return result
    }
}
