import CTesseract
import Foundation

/// Process-wide settings of the C libraries, made once, in one place.
///
/// - Leptonica's message severity is set to none: its warnings about damaged files would
///   otherwise reach the user's terminal; snap-poem reports every failure itself.
/// - OpenMP: Debian's Tesseract is built with OpenMP, and on a small machine its threads make
///   one page 3–9× slower. `OMP_THREAD_LIMIT` is read only when libgomp loads, and Tesseract
///   overrides `omp_set_num_threads`, so snap-poem calls `omp_set_max_active_levels(0)` on
///   each thread right before it runs Tesseract (the setting is per thread). The function is
///   looked up at run time because Debian ships no linkable `libgomp.so` outside gcc's own
///   folder; where it is absent, Tesseract was built without OpenMP and nothing needs doing.
enum LibrarySetup {
    /// Runs the one-time, process-wide set-up. Cheap after the first call.
    static func ensure() {
        _ = once
    }

    private static let once: Void = {
        setMsgSeverity(Int32(L_SEVERITY_NONE))
    }()

    private typealias SetMaxActiveLevels = @convention(c) (Int32) -> Void

    private static let setMaxActiveLevels: SetMaxActiveLevels? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels") else {
            return nil
        }
        return unsafeBitCast(symbol, to: SetMaxActiveLevels.self)
    }()

    /// Keeps OpenMP from starting a thread team on the calling thread. Call on the thread that
    /// is about to run Tesseract, every time (threads of a pool change).
    static func keepTesseractSingleThreaded() {
        setMaxActiveLevels?(0)
    }
}
