import CHeif
import CTesseract
import CTesseractShim
import Foundation

/// What the SnapPoem library changes in the process it runs in: as little as works, made in
/// one place. A program that imports SnapPoem keeps Tesseract's, Leptonica's, libgomp's and
/// the codecs' own functions (the `snap-poem` executable replaces some of them for itself:
/// `Sources/CProcessOverrides/include/ProcessOverrides.h`), and these settings only:
///
/// - Tesseract's `textord_tabfind_find_tables` is set to 0 when the first engine starts. It is
///   a process-wide variable, so it holds for every Tesseract engine in the process, the
///   host's own included. On a page of scattered specks the table finder's grid searches
///   grow far faster than the specks (a page of 4 815 specks, enlarged as snap-poem enlarges
///   it, took 1.3 s of layout analysis without it and had not finished after 400 s with it),
///   and layout analysis cannot be interrupted, so no time limit could hold with it. A poem
///   is not a table: the text of the benchmark and sample images is unchanged without it.
/// - OpenMP: Debian's Tesseract is built with OpenMP, and on a small machine its threads make
///   one page 3–9× slower. So each call into Tesseract runs with OpenMP's maximum of active
///   levels at 0 on the calling thread (`omp_set_max_active_levels`, a setting of that thread
///   alone), and the thread's previous value is restored when the call returns
///   (`enterTesseract`): the host's own OpenMP, on that thread or any other, is left as it
///   was. The functions are looked up at run time, because Debian ships no linkable
///   `libgomp.so` outside gcc's own folder; where they are absent, Tesseract was built
///   without OpenMP and nothing needs doing.
/// - libheif is loaded (`dlopen`) and initialised once (`heif_init`), the first time a HEIC
///   or AVIF file is met, and never deinitialised (libheif counts its initialisations, so a host's own
///   `heif_init`/`heif_deinit` pairs are unaffected): on libheif 1.19 and later (Debian 13)
///   that loads its decoder plugins from its plugin folder; on 1.15 (Debian 12) the decoders
///   are built in and it loads none.
///
/// Everything else is the host's: Leptonica's and Tesseract's messages print as they do
/// (`ProcessSettings.applyQuietDefaults()` is the opt-in the `snap-poem` command uses), the
/// allocator, signals, the environment and the locale are left alone.
enum LibrarySetup {
    /// Loads and initialises libheif once (`dlopen`, then `heif_init`, which loads its
    /// decoder plugins). Cheap after the first call.
    ///
    /// - Returns: nil when libheif is ready, or why it is not (not installed, or too old).
    static func loadHEIF() -> String? {
        snap_poem_heif_load().map { String(cString: $0) }
    }

    private typealias SetMaxActiveLevels = @convention(c) (Int32) -> Void
    private typealias GetMaxActiveLevels = @convention(c) () -> Int32

    private static let setMaxActiveLevels: SetMaxActiveLevels? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels") else {
            return nil
        }
        return unsafeBitCast(symbol, to: SetMaxActiveLevels.self)
    }()

    private static let getMaxActiveLevels: GetMaxActiveLevels? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_get_max_active_levels") else {
            return nil
        }
        return unsafeBitCast(symbol, to: GetMaxActiveLevels.self)
    }()

    /// Runs the one-time Tesseract set-up: `textord_tabfind_find_tables`, and the list of
    /// process-wide variables. Cheap after the first call.
    ///
    /// - Throws: `SnapPoemError.engineInitializationFailed` when Tesseract cannot even create
    ///   a handle (memory); the next call tries again.
    static func ensureTesseract() throws(SnapPoemError) {
        let names = tesseractSetup.withLock { state -> Set<String>? in
            if state == nil {
                state = TesseractProcessSettings.apply(TesseractProcessSettings.required)
                if state != nil, quietTesseract.withLock({ $0 }) { _ = TesseractProcessSettings.apply(TesseractProcessSettings.quiet) }
            }
            return state
        }
        guard names != nil else {
            throw .engineInitializationFailed(reason: "out of memory while setting Tesseract up")
        }
    }

    /// Tesseract's process-wide ("global") variables, such as `debug_file` and the
    /// `textord_*` layout settings: setting one on any engine changes it for all of them.
    /// Empty until `ensureTesseract` succeeded.
    static var processWideVariables: Set<String> {
        tesseractSetup.withLock { $0 ?? [] }
    }

    /// The names found by `ensureTesseract`, nil until it succeeds. Behind a pthread mutex
    /// (`Locked`) rather than `Mutex`, whose futex ThreadSanitizer cannot see through when
    /// engines start on several threads at once.
    private static let tesseractSetup = Locked<Set<String>?>(nil)

    /// The calling thread's OpenMP setting before `enterTesseract`, for `leaveTesseract`.
    struct ThreadState {
        fileprivate let maxActiveLevels: Int32?
    }

    /// Keeps OpenMP from starting a thread team on the calling thread while it runs Tesseract,
    /// until `leaveTesseract(_:)` with the state returned, called on the same thread (with
    /// `defer`): the thread's OpenMP setting is restored then. The executable's overrides
    /// learn of it too (`snap_poem_hook_running_tesseract`).
    static func enterTesseract() -> ThreadState {
        let state = ThreadState(maxActiveLevels: getMaxActiveLevels?())
        setMaxActiveLevels?(0)
        snap_poem_hook_running_tesseract(1)
        return state
    }

    /// Ends what `enterTesseract()` began on this thread.
    static func leaveTesseract(_ state: ThreadState) {
        snap_poem_hook_running_tesseract(0)
        if let previous = state.maxActiveLevels { setMaxActiveLevels?(previous) }
    }

    /// Whether `ProcessSettings.applyQuietDefaults()` asked for Tesseract's quiet defaults.
    private static let quietTesseract = Locked(false)

    /// Makes Tesseract's quiet defaults (`TesseractProcessSettings.quiet`) part of the set-up:
    /// at once when an engine has started, else when the first one starts.
    static func requestQuietTesseract() {
        quietTesseract.withLock { $0 = true }
        tesseractSetup.withLock { state in
            if state != nil { _ = TesseractProcessSettings.apply(TesseractProcessSettings.quiet) }
        }
    }
}

/// The one-time Tesseract settings, made through a throwaway handle.
private enum TesseractProcessSettings {
    /// What the library needs in every process (see `LibrarySetup`).
    static let required: KeyValuePairs<String, String> = ["textord_tabfind_find_tables": "0"]

    /// What `ProcessSettings.applyQuietDefaults()` adds: Tesseract's diagnostics to
    /// `/dev/null` (every failure is detected from return values instead, and reported with
    /// context), and `textord_all_prop` 1, by which layout analysis takes every line for
    /// proportional type instead of testing each for fixed pitch (only the legacy recogniser
    /// cuts characters at a fixed pitch; the test was 3 % of the CPU of reading ten held-out
    /// images, and the text of all 84 benchmark and sample images is the same without it).
    static let quiet: KeyValuePairs<String, String> = ["debug_file": "/dev/null", "textord_all_prop": "1"]

    /// Sets `settings` and returns the names of the process-wide variables; nil when
    /// Tesseract ran out of memory.
    static func apply(_ settings: KeyValuePairs<String, String>) -> Set<String>? {
        var created: OpaquePointer?
        guard snap_poem_tess_create(&created) == SNAP_POEM_CALL_RETURNED, let handle = created else { return nil }
        defer { TessBaseAPIDelete(handle) }
        var accepted: Int32 = 0
        for (name, value) in settings {
            guard snap_poem_tess_set_variable(handle, name, value, &accepted) == SNAP_POEM_CALL_RETURNED else { return nil }
        }
        return processWideNames(handle)
    }

    /// Tesseract prints its variables as `name<TAB>value<TAB>help` lines, the process-wide
    /// ones first, each group ordered int, bool, string, double
    /// (`ParamUtils::PrintParams`). The process-wide group ends where that order starts
    /// again: at the first integer after a later type.
    private static func processWideNames(_ handle: OpaquePointer) -> Set<String>? {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = snap_poem_tess_print_variables(handle, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == SNAP_POEM_CALL_RETURNED, let buffer else { return nil }
        let text = String(cString: buffer)
        var names: Set<String> = []
        var lastRank = 0
        for line in text.split(separator: "\n") {
            guard let name = line.split(separator: "\t", maxSplits: 1).first.map(String.init) else { continue }
            guard let rank = typeRank(of: name, on: handle) else { continue }
            if rank < lastRank { break }
            lastRank = rank
            names.insert(name)
        }
        return names
    }

    /// 0 for an integer variable, 1 boolean, 2 string, 3 double; nil for an unknown name.
    private static func typeRank(of name: String, on handle: OpaquePointer) -> Int? {
        var integer: Int32 = 0, boolean: Int32 = 0, real: Double = 0
        if TessBaseAPIGetIntVariable(handle, name, &integer) != 0 { return 0 }
        if TessBaseAPIGetBoolVariable(handle, name, &boolean) != 0 { return 1 }
        if TessBaseAPIGetStringVariable(handle, name) != nil { return 2 }
        if TessBaseAPIGetDoubleVariable(handle, name, &real) != 0 { return 3 }
        return nil
    }
}
