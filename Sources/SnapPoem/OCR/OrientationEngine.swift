import CTesseract
import CTesseractShim
import Foundation

/// One Tesseract handle started with the `osd` model only, for orientation and script
/// detection (`TessBaseAPIDetectOrientationScript`).
///
/// Owns its handle and frees it once, in `deinit` (`TessBaseAPIEnd`, `TessBaseAPIDelete`).
/// Like `TesseractEngine` it is stateful and deliberately not `Sendable`: it lives on one
/// `OrientationDetector`'s queue and is used only there. Its allocating Tesseract calls go
/// through `CTesseractShim`; one that runs out of memory marks the engine `isDamaged`.
final class OrientationEngine {
    private let handle: OpaquePointer
    /// The tessdata folder `osd.traineddata` was loaded from.
    let tessdata: TessdataLocation
    /// Set when a Tesseract call failed half-way: the engine must not be used again.
    private(set) var isDamaged = false

    /// Loads `osd.traineddata` from `tessdataDirectory` (resolved as for recognition).
    ///
    /// - Throws: `SnapPoemError.tessdataNotFound`, `.languageNotAvailable` naming `osd` when
    ///   the folder has no `osd.traineddata`, or `.engineInitializationFailed` (out of memory
    ///   included).
    init(tessdataDirectory: String?) throws(SnapPoemError) {
        try LibrarySetup.ensureTesseract()
        let tessdata = try TessdataLocation.resolve(explicit: tessdataDirectory)
        guard tessdata.availableLanguages.contains("osd") else {
            throw .languageNotAvailable(language: "osd", tessdata: tessdata.directory.path, available: tessdata.availableLanguages)
        }
        var createdHandle: OpaquePointer?
        guard snap_poem_tess_create(&createdHandle) == SNAP_POEM_CALL_RETURNED, let created = createdHandle else {
            throw .engineInitializationFailed(reason: "out of memory while creating the orientation engine")
        }
        // Owned here until `self` exists; freed on every failure path.
        var succeeded = false
        defer { if !succeeded { TessBaseAPIDelete(created) } }
        var status: Int32 = -1
        let call = snap_poem_tess_init3(created, tessdata.directory.path, "osd", &status)
        guard call == SNAP_POEM_CALL_RETURNED else {
            throw .engineInitializationFailed(
                reason: TesseractEngine.faultReason(call, while: "loading osd from \(tessdata.directory.path)"))
        }
        guard status == 0 else {
            TessBaseAPIEnd(created)
            throw .engineInitializationFailed(reason: "could not load osd from \(tessdata.directory.path)")
        }
        TessBaseAPISetPageSegMode(created, PSM_OSD_ONLY)
        succeeded = true
        self.handle = created
        self.tessdata = tessdata
    }

    deinit {
        // A Tesseract that threw half-way may hold dangling pointers: deleting it was seen to
        // abort in free(). It is left allocated; that costs its memory, once per failure.
        guard !isDamaged else { return }
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Detects how the page in `image` is turned. Blocks the calling thread (≈ 0.1–0.5 s).
    ///
    /// - Returns: nil when Tesseract finds too little text to decide.
    /// - Throws: `SnapPoemError.outOfMemory` (named `SnapPoemError.unnamedImage`) when memory
    ///   ran out; the engine is then `isDamaged`.
    func detect(_ image: PoemImage) throws(SnapPoemError) -> PageOrientation? {
        precondition(!isDamaged, "a damaged engine must be replaced, not used")
        let thread = LibrarySetup.enterTesseract()
        defer { LibrarySetup.leaveTesseract(thread) }
        defer { if !isDamaged { TessBaseAPIClear(handle) } }
        guard let handed = image.pix.hand(to: handle) else {
            throw .outOfMemory(path: SnapPoemError.unnamedImage, stage: "copying the image for orientation detection")
        }
        try check(handed)
        TessBaseAPISetSourceResolution(handle, 300)
        guard MemoryHeadroom.isAvailable(MemoryHeadroom.recognitionBytes(width: image.width, height: image.height)) else {
            throw .outOfMemory(
                path: SnapPoemError.unnamedImage, stage: "detecting the orientation of the \(image.width)×\(image.height) image")
        }
        var degrees: Int32 = 0, confidence: Float = 0, scriptConfidence: Float = 0, found: Int32 = 0
        // In Tesseract 5 the script name points into the model's own character set; it is
        // copied, never freed (capi.h's note about TessDeleteText predates that).
        var script: UnsafePointer<CChar>?
        try check(snap_poem_tess_detect_orientation(handle, &degrees, &confidence, &script, &scriptConfidence, &found))
        guard found != 0, confidence.isFinite else { return nil }
        // Tesseract reports the page's own turn, counter-clockwise; undoing it takes the
        // same angle clockwise the other way round.
        let clockwise = (360 - Int(degrees) % 360) % 360
        return PageOrientation(
            rotation: clockwise, confidence: Double(confidence),
            script: script.map { String(cString: $0) }, scriptConfidence: Double(scriptConfidence))
    }

    /// Marks the engine damaged and throws when a guarded call did not return.
    private func check(_ status: snap_poem_call_status) throws(SnapPoemError) {
        guard status != SNAP_POEM_CALL_RETURNED else { return }
        isDamaged = true
        throw TesseractFault(status: status).named(SnapPoemError.unnamedImage, doing: "detecting the orientation")
    }
}
