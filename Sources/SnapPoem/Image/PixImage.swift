import CTesseract

/// The one owner of a Leptonica `Pix`: frees it exactly once, in `deinit` (`pixDestroy`).
///
/// Instances are never mutated after construction (every operation returns a new image), so
/// sharing one between threads for reading is safe; that is what makes the `@unchecked
/// Sendable` sound. Leptonica's reference count is not atomic, so this type never calls
/// `pixClone`: whoever needs to hand the pixels to a C API that may clone them (Tesseract's
/// `SetImage`) takes a private `pixCopy` first (see `TesseractEngine`).
final class PixImage: @unchecked Sendable {
    /// The owned pixels. Never nil; never destroyed by anyone else.
    let pointer: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pointer`, which must not be used or freed by the caller afterwards.
    init(taking pointer: UnsafeMutablePointer<PIX>) {
        self.pointer = pointer
    }

    /// Takes ownership of the result of a Leptonica call, or returns nil if the call failed.
    static func taking(_ pointer: UnsafeMutablePointer<PIX>?) -> PixImage? {
        pointer.map(PixImage.init(taking:))
    }

    deinit {
        var owned: UnsafeMutablePointer<PIX>? = pointer
        pixDestroy(&owned)
    }

    /// Width in pixels (`pixGetWidth`).
    var width: Int { Int(pixGetWidth(pointer)) }
    /// Height in pixels (`pixGetHeight`).
    var height: Int { Int(pixGetHeight(pointer)) }
    /// Bits per pixel: 1, 2, 4, 8, 16 or 32 (`pixGetDepth`).
    var depth: Int { Int(pixGetDepth(pointer)) }
    /// Whether the image has a colour map (palette).
    var hasColormap: Bool { pixGetColormap(pointer) != nil }

    /// Runs a Leptonica operation that returns a new image; a nil result is a bug in the
    /// caller's arguments (all inputs here are images this type already validated), so it traps.
    func transformed(
        _ operation: String,
        _ body: (UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>?
    ) -> PixImage {
        guard let result = body(pointer) else {
            preconditionFailure("Leptonica \(operation) failed on a \(width)×\(height)×\(depth) image")
        }
        return PixImage(taking: result)
    }
}
