// fuzz-modules: SnapPoem
//
// Leptonica's brick morphology as snap-poem's brick-morphology override computes it
// (Sources/CProcessOverrides/BrickMorphology.cpp), against Leptonica's own, on one image per
// input:
//   byte 0      the function: 0 erode, 1 dilate, 2 open, 3 close (mod 4)
//   bytes 1–2   the brick's width and height, 1…96 (a byte of 255 is 200: past the image)
//   bytes 3–5   the image's width (1…320, bytes 3 and 4) and height (1…48, byte 5)
//   the rest    the image's words as stored, the bits past the width included (Leptonica
//               leaves them in any state, and the override must ignore them); repeated if short
// Both results must be the same words, the bits past the width included.
import CProcessOverrides
import Glibc
import SnapPoem

private func side(_ byte: UInt8) -> Int32 { byte == 255 ? 200 : Int32(byte % 96) + 1 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMorphology(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 7 else { return 0 }
    let kind = Int32(bytes[0] % 4)
    let hsize = side(bytes[1])
    let vsize = side(bytes[2])
    let width = Int32((Int(bytes[3]) | Int(bytes[4] & 1) << 8) % 320) + 1
    let height = Int32(bytes[5] % 48) + 1
    guard let pix = pixCreate(width, height, 1) else { return 0 }
    var owned: PixPointer? = pix
    defer { pixDestroy(&owned) }
    let count = Int(pixGetWpl(pix)) * Int(height)
    let words = UnsafeMutableBufferPointer(start: pixGetData(pix), count: count)
    let payload = UnsafeBufferPointer(start: bytes + 6, count: size - 6)
    for index in 0..<count {
        var word: UInt32 = 0
        for byte in 0..<4 { word = word << 8 | UInt32(payload[(index * 4 + byte) % payload.count]) }
        words[index] = word
    }
    let ours = snap_poem_brick_morphology(kind, pix, hsize, vsize)
    var theirs = snap_poem_leptonica_brick(kind, pix, hsize, vsize)
    var oursOwned = ours
    defer {
        pixDestroy(&oursOwned)
        pixDestroy(&theirs)
    }
    guard let ours, let theirs else {
        precondition(ours == nil && theirs == nil, "one of the two gave no image: kind \(kind), \(hsize)×\(vsize)")
        return 0
    }
    let a = UnsafeBufferPointer(start: pixGetData(ours), count: count)
    let b = UnsafeBufferPointer(start: pixGetData(theirs), count: count)
    precondition(
        pixGetWpl(ours) == pixGetWpl(theirs) && a.elementsEqual(b),
        "kind \(kind), brick \(hsize)×\(vsize), image \(width)×\(height): the words differ from Leptonica's")
    return 0
}
