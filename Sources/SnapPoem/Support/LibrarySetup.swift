import CHeif
import CTesseract
import CTesseractShim
import Foundation

/// Process-wide settings of the C libraries, made once, in one place.
///
/// - Leptonica's message severity is set to none: its warnings about damaged files would
///   otherwise reach the user's terminal; snap-poem reports every failure itself. The codecs
///   under it print nothing either (`Sources/CTesseractShim/CodecMessages.cpp`,
///   `CodecMessages`): libpng's "libpng error: …", libjpeg's "Premature end of JPEG file",
///   libtiff's lines and Leptonica's own stream messages are kept, and become warnings that
///   name the file; printed by the libraries, they came untagged before snap-poem's one line
///   naming the file, and in `snap-poem serve` went into the server's log.
/// - Image memory: Leptonica's pixel buffers (Tesseract's too) come from an allocator that
///   asks the kernel for a large buffer's pages in one call instead of faulting each one in
///   twice (`Sources/CTesseractShim/ImageMemory.cpp`: a 300-dpi page enlarged to 17
///   megapixels spent 0.36 s in the kernel without it, 0.16 s with it).
/// - OpenMP: Debian's Tesseract is built with OpenMP, and on a small machine its threads make
///   one page 3–9× slower. `OMP_THREAD_LIMIT` is read only when libgomp loads, and Tesseract
///   overrides `omp_set_num_threads`, so snap-poem calls `omp_set_max_active_levels(0)` on
///   each thread right before it runs Tesseract (the setting is per thread). The function is
///   looked up at run time because Debian ships no linkable `libgomp.so` outside gcc's own
///   folder; where it is absent, Tesseract was built without OpenMP and nothing needs doing.
///   On the same threads, the OpenMP entry points Tesseract calls run its regions inline
///   (`Sources/CTesseractShim/SerialOpenMP.cpp`): libgomp would still set up a team of one
///   for each region (at every time step of the LSTM), 3 % of a batch's CPU. Other threads'
///   OpenMP, a host program's own, still goes to libgomp.
/// - Tesseract's `debug_file` is set to `/dev/null` once, before the first engine starts
///   (`ensureTesseract`): it is a process-wide variable read by every engine's messages, so
///   setting it per engine raced with engines already running. The names of all of
///   Tesseract's process-wide variables are learnt at the same time
///   (`processWideVariables`), so that engines can refuse a `-c` of one instead of changing
///   every other engine in the process.
/// - Tesseract's `textord_all_prop` is set to 1 at the same time: layout analysis then takes
///   every line for proportional type instead of testing each for fixed pitch. Only the
///   legacy recogniser cuts characters at a fixed pitch; the LSTM reads whole lines either
///   way. The test was 3 % of the CPU of reading ten held-out images, and its removal leaves
///   the text of all 84 benchmark and sample images unchanged (BENCHMARKS.md).
/// - Tesseract's table finding (`textord_tabfind_find_tables`) is switched off at the same
///   time. A poem is not a table, and on a page of scattered specks the table finder's grid
///   searches grow far faster than the specks: a page of 4 815 specks, enlarged as snap-poem
///   enlarges it (5044×7136), took 1.3 s of layout analysis without it and had not finished
///   after 400 s with it. Layout analysis cannot be interrupted, and the table finder's cost
///   does not follow the count of marks, so no bound decided before the work could hold
///   with it. The text of the benchmark and sample images is unchanged without it
///   (BENCHMARKS.md, "A bound on layout analysis").
/// - libheif is initialised once (`heif_init`), the first time a HEIC or AVIF file is met, and
///   never deinitialised: on libheif 1.19 (Debian 13) that loads its decoder plugins from
///   its plugin folder; on 1.15 (Debian 12) the decoders are built in and it loads none.
enum LibrarySetup {
    /// Runs the one-time, process-wide set-up. Cheap after the first call.
    static func ensure() {
        _ = once
    }

    private static let once: Void = {
        setMsgSeverity(Int32(L_SEVERITY_NONE))
        snap_poem_quiet_codecs()
        snap_poem_use_prefaulted_image_memory()
    }()

    /// Initialises libheif once (`heif_init`): its decoder plugins are loaded. Cheap after
    /// the first call.
    static func ensureHEIF() {
        _ = heifOnce
    }

    private static let heifOnce: Void = {
        _ = heif_init(nil)
    }()

    private typealias SetMaxActiveLevels = @convention(c) (Int32) -> Void

    private static let setMaxActiveLevels: SetMaxActiveLevels? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels") else {
            return nil
        }
        return unsafeBitCast(symbol, to: SetMaxActiveLevels.self)
    }()

    /// Runs the one-time Tesseract set-up: `debug_file`, and the list of process-wide
    /// variables. Cheap after the first call.
    ///
    /// - Throws: `SnapPoemError.engineInitializationFailed` when Tesseract cannot even create
    ///   a handle (memory); the next call tries again.
    static func ensureTesseract() throws(SnapPoemError) {
        ensure()
        let names = tesseractSetup.withLock { state -> Set<String>? in
            if state == nil { state = TesseractProcessSettings.apply() }
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
    /// (`NSLock`) rather than `Mutex`, whose futex ThreadSanitizer cannot see through when
    /// engines start on several threads at once.
    private static let tesseractSetup = LockedValue<Set<String>?>(nil)

    /// Keeps OpenMP from starting a thread team on the calling thread. Call on the thread that
    /// is about to run Tesseract, every time (threads of a pool change).
    static func keepTesseractSingleThreaded() {
        setMaxActiveLevels?(0)
        snap_poem_run_openmp_inline()
    }

    /// Whether Tesseract's OpenMP regions run inline on the threads that run it from their
    /// next recognition on (the default), or go to libgomp as a team of one
    /// (`Sources/CTesseractShim/SerialOpenMP.cpp`): for the test that compares the two.
    static func setRunsOpenMPInline(_ inline: Bool) {
        snap_poem_set_openmp_inline_enabled(inline ? 1 : 0)
    }

    /// Whether LSTM-only engines started from now on skip Tesseract's universal ambiguity
    /// table, which only the legacy engine reads (true, the default: see
    /// `Sources/CTesseractShim/UniversalAmbiguities.cpp`), or load it as Tesseract does: for
    /// the test that compares the two readings.
    static func setSkipsUniversalAmbiguities(_ skips: Bool) {
        snap_poem_set_skips_universal_ambiguities(skips ? 1 : 0)
    }
}

/// A value behind an `NSLock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

/// The one-time Tesseract settings, made through a throwaway handle.
private enum TesseractProcessSettings {
    /// Sets `debug_file` and returns the names of the process-wide variables; nil when
    /// Tesseract ran out of memory.
    static func apply() -> Set<String>? {
        var created: OpaquePointer?
        guard snap_poem_tess_create(&created) == SNAP_POEM_CALL_RETURNED, let handle = created else { return nil }
        defer { TessBaseAPIDelete(handle) }
        // Tesseract prints diagnostics to stderr; route them away, once, for every engine.
        // Every failure is detected from return values instead, and reported with context.
        var accepted: Int32 = 0
        guard snap_poem_tess_set_variable(handle, "debug_file", "/dev/null", &accepted) == SNAP_POEM_CALL_RETURNED else {
            return nil
        }
        guard snap_poem_tess_set_variable(handle, "textord_all_prop", "1", &accepted) == SNAP_POEM_CALL_RETURNED,
            snap_poem_tess_set_variable(handle, "textord_tabfind_find_tables", "0", &accepted) == SNAP_POEM_CALL_RETURNED
        else {
            return nil
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
