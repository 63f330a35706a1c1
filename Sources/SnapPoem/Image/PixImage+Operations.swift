import CTesseract

/// Raw pixel access for the measurements in `ImageAnalysis`.
extension PixImage {
    /// Copies the pixels of an 8-bit grey image into a row-major byte array (`pixGetData`).
    ///
    /// Leptonica stores pixels in 32-bit words, most significant byte first; this undoes that.
    func grayBytes() -> [UInt8] {
        precondition(depth == 8 && !hasColormap, "grayBytes needs an 8-bit grey image")
        let width = self.width, height = self.height
        let wordsPerLine = Int(pixGetWpl(pointer))
        guard let data = pixGetData(pointer), width > 0, height > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: width * height)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let row = data + y * wordsPerLine
                let start = y * width
                for x in 0..<width {
                    let word = row[x >> 2]
                    buffer[start + x] = UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32(x & 3)))
                }
            }
        }
        return bytes
    }

    /// The bounding boxes of the 8-connected black components of a 1-bit image
    /// (`pixConnComp`), as (width, height) pairs.
    func componentSizes() -> [(width: Int, height: Int)] {
        precondition(depth == 1, "components are found in 1-bit images")
        guard let boxes = pixConnComp(pointer, nil, 8) else { return [] }
        defer {
            var owned: UnsafeMutablePointer<BOXA>? = boxes
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
