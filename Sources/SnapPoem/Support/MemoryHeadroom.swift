import Foundation

/// Checks, before a step whose C code does not handle a failed allocation, that the memory
/// the step will need can still be had.
///
/// Tesseract 5.3 crashes (segmentation fault) when a Leptonica allocation fails inside its
/// layout analysis (`SetBlobStrokeWidth`), and Leptonica 1.82 does too in places
/// (`pixSeedfill8BB` uses a box it could not create), instead of returning an error. Under
/// an address-space limit (`ulimit -v`, `RLIMIT_AS`) that is how running out of memory would
/// end. So before preparing an image, and before each recognition or orientation
/// detection, snap-poem asks for the room the step needs in one allocation and gives it
/// back at once (`mmap`, `munmap`): if that fails, the image fails with
/// `SnapPoemError.outOfMemory` and the step never starts. Without a limit the check costs
/// two system calls and passes (Linux overcommits; its OOM killer is another matter).
///
/// It is a check, not a reservation: another thread allocating between the check and the
/// step's peak (another worker of a batch) can still take the room. The sizes were chosen
/// by running a 12-megapixel photo and a page under limits from 140 to 480 MB (see SECURITY.md).
enum MemoryHeadroom {
    /// Bytes to have free per pixel of the image Tesseract is given.
    static let bytesPerPixel = 8
    /// Bytes to have free for any image, on top.
    static let fixedBytes = 32 << 20

    /// Bytes to have free before preparing a `width` × `height` image: its grey copy, the
    /// scaled copy, and the reduced copies measured, all of which Leptonica allocates.
    static func preprocessingBytes(width: Int, height: Int) -> Int {
        4 * width * height + fixedBytes
    }

    /// Bytes to have free before Tesseract recognises (or detects the orientation of) a
    /// `width` × `height` image.
    static func recognitionBytes(width: Int, height: Int) -> Int {
        bytesPerPixel * width * height + fixedBytes
    }

    /// Whether the process runs under an address-space limit (`ulimit -v`), where the checks
    /// above decide how running out of memory ends: work that allocates while another step
    /// is checked and run (models loading in the background) would take the room a check
    /// found, so under a limit such work is done first, one step after another.
    static var isLimited: Bool { AddressSpaceLimit.current != nil }

    /// Whether `bytes` can be had now: maps that much anonymous memory and unmaps it at once,
    /// without touching it (no page is used). A `malloc` and `free` would not do: the
    /// optimiser may remove an allocation that nothing reads.
    static func isAvailable(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let block = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let block, block != MAP_FAILED else { return false }
        munmap(block, bytes)
        return true
    }
}
