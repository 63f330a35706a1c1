import CTesseract

/// The one owner of a Leptonica `Pix`: frees it exactly once, in `deinit` (`pixDestroy`).
///
/// Instances are never mutated after construction (every operation returns a new image), so
/// sharing one between threads for reading is safe; that is what makes the `@unchecked
/// Sendable` sound. Leptonica's reference count is not atomic, so this type never calls
/// `pixClone`, and hands its pixels to Tesseract only through `hand(to:)`, which knows when
/// Tesseract would write to them.
final class PixImage: @unchecked Sendable {
    /// The owned pixels. Never nil; never destroyed by anyone else.
    let pointer: PixPointer

    /// Takes ownership of `pointer`, which must not be used or freed by the caller afterwards.
    init(taking pointer: PixPointer) {
        self.pointer = pointer
    }

    /// Takes ownership of the result of a Leptonica call, or returns nil if the call failed.
    static func taking(_ pointer: PixPointer?) -> PixImage? {
        pointer.map(PixImage.init(taking:))
    }

    deinit {
        var owned: PixPointer? = pointer
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

    /// Runs a Leptonica operation that returns a new image: the one checked wrapper through
    /// which every Leptonica call that must succeed goes.
    ///
    /// All inputs here are images this type already validated, so a nil result means that
    /// Leptonica could not allocate the new image: it becomes `SnapPoemError.outOfMemory`
    /// (named `SnapPoemError.unnamedImage` until the pipeline names the file), never a trap.
    /// A result that is the input itself (Leptonica returns a `pixClone` when there is
    /// nothing to do, e.g. `pixRotate` by less than 0.0573°) gives back its extra reference
    /// at once and returns `self`, so no two owners ever share Leptonica's non-atomic
    /// reference count.
    func transformed(
        _ operation: String,
        _ body: (PixPointer) -> PixPointer?
    ) throws(SnapPoemError) -> PixImage {
        guard hasRoomForOperation, let result = attempt(body) else {
            throw .outOfMemory(
                path: SnapPoemError.unnamedImage,
                stage: "running Leptonica's \(operation) on a \(width)×\(height) image of \(depth) bits a pixel")
        }
        return result
    }

    /// The bytes of the pixels (`pixGetWpl` × 4 × height).
    var byteCount: Int { Int(pixGetWpl(pointer)) * 4 * height }

    /// Whether a Leptonica operation on this image can still get the memory it needs: twice
    /// the image, and 32 MiB more. Leptonica 1.82 does not check every allocation it
    /// makes (see `MemoryHeadroom`), so operations are not started without it.
    var hasRoomForOperation: Bool {
        MemoryHeadroom.isAvailable(2 * byteCount + (32 << 20))
    }

    /// Throws `SnapPoemError.outOfMemory` unless `hasRoomForOperation`, for steps that use
    /// `attempt` and would otherwise skip themselves quietly.
    func ensureRoomForOperation(_ operation: String) throws(SnapPoemError) {
        guard hasRoomForOperation else {
            throw .outOfMemory(
                path: SnapPoemError.unnamedImage,
                stage: "running Leptonica's \(operation) on a \(width)×\(height) image of \(depth) bits a pixel")
        }
    }

    /// Runs a Leptonica operation that returns a new image, or nil when Leptonica refuses it
    /// (or cannot allocate it, or there is not `hasRoomForOperation`). A clone of the input
    /// is handled as in `transformed`.
    ///
    /// Use this instead of `transformed` wherever the input comes from the user and the
    /// operation has limits of its own (sizes, reductions); the caller then skips the step.
    func attempt(_ body: (PixPointer) -> PixPointer?) -> PixImage? {
        guard hasRoomForOperation, let result = body(pointer) else { return nil }
        if result == pointer {
            var extraReference: PixPointer? = result
            pixDestroy(&extraReference)
            return self
        }
        return PixImage(taking: result)
    }
}
