import Foundation

/// Leaves a PNG's text chunks (`tEXt`, `zTXt`, `iTXt`) out of what libpng decodes.
///
/// libpng inflates every compressed text chunk it meets, before the image data or after it,
/// up to about 8 MB each and a thousand chunks: 60 `zTXt` chunks of repeated letters, a
/// 463 KB file around a 200×100 image, cost 548 MB, and the bound grows with the number of
/// chunks, not with the pixels the limits check. Text chunks say nothing about the image's
/// pixels, so they are dropped from a copy before it is decoded. Every other chunk is kept
/// as it is, CRCs included; chunk lengths are bounds-checked, and a structure that cannot
/// be followed is left to the decoder to report.
enum PNGTextChunks {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let textTypes: Set<String> = ["tEXt", "zTXt", "iTXt"]

    /// `data` without its text chunks; nil when it has none (or is not a PNG whose chunks
    /// can be followed to the end of its data), so that nothing is copied.
    static func removed(from data: Data) -> Data? {
        let kept: [Range<Int>]? = data.withUnsafeBytes { bytes in
            guard bytes.count >= 8, bytes.starts(with: signature) else { return nil }
            var kept: [Range<Int>] = [0..<8]
            var foundText = false
            var offset = 8
            while offset + 12 <= bytes.count {
                let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
                guard length <= bytes.count - offset - 12 else { break }
                let end = offset + 12 + length
                if textTypes.contains(type) {
                    foundText = true
                } else if let last = kept.last, last.upperBound == offset {
                    kept[kept.count - 1] = last.lowerBound..<end
                } else {
                    kept.append(offset..<end)
                }
                offset = end
                if type == "IEND" { break }
            }
            guard foundText else { return nil }
            // Whatever follows the last chunk that could be followed stays, for the decoder to
            // judge.
            if offset < bytes.count { kept.append(offset..<bytes.count) }
            return kept
        }
        guard let kept else { return nil }
        var result = Data(capacity: kept.reduce(0) { $0 + $1.count })
        let base = data.startIndex
        for range in kept { result.append(data[(base + range.lowerBound)..<(base + range.upperBound)]) }
        return result
    }
}
