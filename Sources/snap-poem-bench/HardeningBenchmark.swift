import CTesseract
import Foundation
import SnapPoem

/// `snap-poem-bench hardening [--runs N]`: what the hardening costs and saves.
///
/// - Replacement pairs: `ReplacementSet.apply` on the text of Lenore with 100, 1 000 and
///   10 000 pairs (the cap); time per pair shows whether the cost is linear.
/// - A GIF over the pixel limit: refused from its header by `ImageDecoder` against what
///   Leptonica's `pixReadHeaderMem` costs to learn the same size (it decodes the image).
/// - An animated GIF: `ImageDecoder` (first frame only) against `pixReadMem` (every frame).
/// - The memory checks made before each step (`mmap` + `munmap` of 200 MB).
func hardening(runs: Int) async throws {
    try replacementScaling(runs: runs)
    print()
    try matcherBounds(runs: runs)
    print()
    try gifHeaders(runs: runs)
    print()
    headroomCheck(runs: runs)
}

/// Medians of `runs` timings of `body`, in milliseconds.
private func timed(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        try body()
        times.append(milliseconds(clock.now - start))
    }
    return median(times)
}

private func replacementScaling(runs: Int) throws {
    let text = try String(contentsOfFile: "SampleImages/Lenore.txt", encoding: .utf8)
    print("| pairs (none matching) | apply ms | µs per pair |")
    print("| ---: | ---: | ---: |")
    for count in [100, 1_000, ReplacementSet.maximumPairs] {
        let set = ReplacementSet((0..<count).map { Replacement(find: "w\($0)", replaceWith: "x") })
        let time = timed(runs: runs) { _ = set.apply(to: text) }
        print("| \(count) | \(format(time)) | \(String(format: "%.1f", time * 1000 / Double(count))) |")
    }
}

/// Sets built in code past the limits taken from outside, which the matcher must still apply
/// in time and memory that grow with what it compares (issue 18): one FIND of 21 844
/// distinct CJK letters (its table was FIND × distinct letters doubles, 1.8 GB), 10 000
/// distinct one-letter FINDs on a text holding 3 000 of them, and a hundred self-overlapping
/// FINDs ("a", "aa", …) in 100 000 "a"s, substrings and case ignored.
private func matcherBounds(runs: Int) throws {
    let lenore = try String(contentsOfFile: "SampleImages/Lenore.txt", encoding: .utf8)
    let letters = (0..<21_844).map { Character(Unicode.Scalar(0x4E00 + $0)!) }
    let spaced = letters.prefix(3_000).map { "\($0) " }.joined()
    let cases: [(String, ReplacementSet, String)] = [
        ("1 FIND of 21 844 distinct CJK letters", ReplacementSet([Replacement(find: String(letters), replaceWith: "x")]), lenore + spaced),
        (
            "10 000 one-letter FINDs, 3 000 in the text",
            ReplacementSet(letters.prefix(10_000).map { Replacement(find: String($0), replaceWith: "x") }),
            lenore + spaced
        ),
        (
            "the same, case ignored, substrings",
            ReplacementSet(
                letters.prefix(10_000).map { Replacement(find: String($0), replaceWith: "x") },
                options: MatchingOptions(caseSensitive: false, wholeWords: false)), lenore + spaced
        ),
        (
            "100 FINDs a, aa, … in 100 000 a, substrings",
            ReplacementSet(
                (1...100).map { Replacement(find: String(repeating: "a", count: $0), replaceWith: "b") },
                options: MatchingOptions(caseSensitive: false, wholeWords: false)), String(repeating: "a", count: 100_000)
        ),
    ]
    print("| set built in code | text characters | apply ms |")
    print("| --- | ---: | ---: |")
    for (name, set, text) in cases {
        let time = timed(runs: max(1, runs / 3)) { _ = set.apply(to: text) }
        print("| \(name) | \(text.count) | \(format(time)) |")
    }
}

/// A one-frame GIF of `width` × `height` written by Leptonica, and that frame repeated
/// `frames` times.
private func gif(width: Int32, height: Int32, frames: Int) throws -> Data {
    // Typed by inference: `UnsafeMutablePointer<PIX>` with Leptonica 1.82, `OpaquePointer` with 1.84.
    var owned = pixCreate(width, height, 8)
    defer { pixDestroy(&owned) }
    guard let pix = owned else { throw CocoaError(.featureUnsupported) }
    pixSetAllGray(pix, 200)
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    guard pixWriteMem(&bytes, &size, pix, Int32(IFF_GIF)) == 0, let bytes else { throw CocoaError(.featureUnsupported) }
    defer { free(bytes) }
    let single = [UInt8](UnsafeBufferPointer(start: bytes, count: size))
    guard frames > 1 else { return Data(single) }
    // The frame: from the image descriptor (after the screen, colour table, extensions) to
    // the trailer.
    var start = 13 + (single[10] & 0x80 != 0 ? 3 << (Int(single[10] & 7) + 1) : 0)
    while single[start] == 0x21 {
        start += 2
        while single[start] != 0 { start += Int(single[start]) + 1 }
        start += 1
    }
    let frame = single[start..<(single.count - 1)]
    return Data(single[..<start] + Array(repeating: frame, count: frames).joined() + [0x3B])
}

private func gifHeaders(runs: Int) throws {
    let big = try gif(width: 4000, height: 4000, frames: 1)
    let limits = ImageLimits(maxPixels: 10_000_000)
    let refused = timed(runs: runs) { _ = try? ImageDecoder.decode(data: big, name: "big.gif", limits: limits) }
    let leptonica = timed(runs: runs) {
        var format: Int32 = 0, width: Int32 = 0, height: Int32 = 0, bits: Int32 = 0, samples: Int32 = 0, colormap: Int32 = 0
        _ = big.withUnsafeBytes { raw in
            pixReadHeaderMem(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &format, &width, &height, &bits, &samples, &colormap)
        }
    }
    let animated = try gif(width: 2000, height: 2000, frames: 10)
    let firstFrame = timed(runs: runs) { _ = try? ImageDecoder.decode(data: animated, name: "animated.gif") }
    let allFrames = timed(runs: runs) {
        var pix = animated.withUnsafeBytes { raw in pixReadMem(raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
        pixDestroy(&pix)
    }
    print("| GIF | snap-poem ms | Leptonica alone ms | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(
        "| 4000×4000 over a 10 MP limit: refused from the header vs pixReadHeaderMem | \(String(format: "%.2f", refused)) | \(format(leptonica)) | \(String(format: "%.3f", refused / leptonica)) |"
    )
    print(
        "| 2000×2000, 10 frames: first frame vs pixReadMem (all frames) | \(format(firstFrame)) | \(format(allFrames)) | \(String(format: "%.2f", firstFrame / allFrames)) |"
    )
}

private func headroomCheck(runs: Int) {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<max(runs, 5) * 100 {
        let start = clock.now
        let block = mmap(nil, 200 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let block, block != MAP_FAILED { munmap(block, 200 << 20) }
        times.append(milliseconds(clock.now - start) * 1000)
    }
    print("Memory check before a step (mmap + munmap of 200 MB, untouched): median \(String(format: "%.1f", median(times))) µs.")
}
