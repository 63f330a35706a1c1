// fuzz-modules: SnapPoem
//
// Leptonica's brick morphology as snap-poem's shim computes it (BrickMorphology.cpp),
// against Leptonica's own, on one image per input:
//   byte 0      the function: 0 erode, 1 dilate, 2 open, 3 close (mod 4)
//   bytes 1–2   the brick's width and height, 1…96 (a byte of 255 is 200: past the image)
//   bytes 3–5   the image's width (1…320, bytes 3 and 4) and height (1…48, byte 5)
//   the rest    the image's words as stored, the bits past the width included (Leptonica
//               leaves them in any state, and the shim must ignore them); repeated if short
// Both results must be the same words, the bits past the width included.
import CTesseractShim
import Foundation
import Glibc
import SnapPoem

/// The shim's definitions are the ones this program calls, or the comparison would be
/// Leptonica's against itself.
private let comparesTheShim: Bool = {
    // Leptonica's library as loaded (liblept.so.5 on Debian 12, libleptonica.so.6 on Debian
    // 13): the mapped file whose name starts with "liblept" (read with FileHandle:
    // String(contentsOfFile:) stops after 4 KiB of a /proc file).
    guard let file = FileHandle(forReadingAtPath: "/proc/self/maps"), let bytes = try? file.readToEnd(),
        case let maps = String(decoding: bytes, as: UTF8.self),
        let path = maps.split(separator: "\n").lazy
            .compactMap({ $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first })
            .first(where: { $0.split(separator: "/").last?.hasPrefix("liblept") == true }),
        let liblept = dlopen(String(path), RTLD_NOW | RTLD_NOLOAD)
    else { return false }
    defer { dlclose(liblept) }
    let names: [String] = ["pixErodeBrick", "pixDilateBrick", "pixOpenBrick", "pixCloseBrick"]
    return names.allSatisfy { name in
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != dlsym(liblept, name)
    }
}()

private func side(_ byte: UInt8) -> Int32 { byte == 255 ? 200 : Int32(byte % 96) + 1 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMorphology(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(comparesTheShim, "the brick functions called are Leptonica's, not the shim's")
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
    let ours: PixPointer?
    switch kind {
    case 0: ours = pixErodeBrick(nil, pix, hsize, vsize)
    case 1: ours = pixDilateBrick(nil, pix, hsize, vsize)
    case 2: ours = pixOpenBrick(nil, pix, hsize, vsize)
    default: ours = pixCloseBrick(nil, pix, hsize, vsize)
    }
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
