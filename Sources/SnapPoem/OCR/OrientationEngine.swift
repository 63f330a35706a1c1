import CTesseract
import Foundation

/// One Tesseract handle started with the `osd` model only, for orientation and script
/// detection (`TessBaseAPIDetectOrientationScript`).
///
/// Owns its handle and frees it once, in `deinit` (`TessBaseAPIEnd`, `TessBaseAPIDelete`).
/// Like `TesseractEngine` it is stateful and deliberately not `Sendable`: it lives on one
/// `OrientationDetector`'s queue and is used only there.
final class OrientationEngine {
    private let handle: OpaquePointer
    /// The tessdata folder `osd.traineddata` was loaded from.
    let tessdata: TessdataLocation

    /// Loads `osd.traineddata` from `tessdataDirectory` (resolved as for recognition).
    ///
    /// - Throws: `SnapPoemError.tessdataNotFound`, `.languageNotAvailable` naming `osd` when
    ///   the folder has no `osd.traineddata`, or `.engineInitializationFailed`.
    init(tessdataDirectory: String?) throws(SnapPoemError) {
        LibrarySetup.ensure()
        let tessdata = try TessdataLocation.resolve(explicit: tessdataDirectory)
        guard tessdata.availableLanguages.contains("osd") else {
            throw .languageNotAvailable(language: "osd", tessdata: tessdata.directory.path, available: tessdata.availableLanguages)
        }
        guard let created = TessBaseAPICreate() else {
            throw .engineInitializationFailed(reason: "TessBaseAPICreate returned nothing")
        }
        // Owned here until `self` exists; freed on every failure path.
        var succeeded = false
        defer { if !succeeded { TessBaseAPIDelete(created) } }
        TessBaseAPISetVariable(created, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(created, tessdata.directory.path, "osd") == 0 else {
            TessBaseAPIEnd(created)
            throw .engineInitializationFailed(reason: "could not load osd from \(tessdata.directory.path)")
        }
        TessBaseAPISetPageSegMode(created, PSM_OSD_ONLY)
        succeeded = true
        self.handle = created
        self.tessdata = tessdata
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Detects how the page in `image` is turned. Blocks the calling thread (≈ 0.1–0.5 s).
    ///
    /// - Returns: nil when Tesseract finds too little text to decide.
    func detect(_ image: PoemImage) -> PageOrientation? {
        LibrarySetup.keepTesseractSingleThreaded()
        defer { TessBaseAPIClear(handle) }
        // A private copy, so that no Leptonica reference count is shared between threads.
        var privateCopy = pixCopy(nil, image.pix.pointer)
        guard privateCopy != nil else { return nil }
        TessBaseAPISetImage2(handle, privateCopy)
        pixDestroy(&privateCopy)
        TessBaseAPISetSourceResolution(handle, 300)
        var degrees: Int32 = 0, confidence: Float = 0, scriptConfidence: Float = 0
        // In Tesseract 5 the script name points into the model's own character set; it is
        // copied, never freed (capi.h's note about TessDeleteText predates that).
        var script: UnsafePointer<CChar>?
        guard TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, &script, &scriptConfidence) != 0,
            confidence.isFinite
        else { return nil }
        // Tesseract reports the page's own turn, counter-clockwise; undoing it takes the
        // same angle clockwise the other way round.
        let clockwise = (360 - Int(degrees) % 360) % 360
        return PageOrientation(
            rotation: clockwise, confidence: Double(confidence),
            script: script.map { String(cString: $0) }, scriptConfidence: Double(scriptConfidence))
    }
}
