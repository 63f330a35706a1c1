import SnapPoem

/// One recognition slot of the service: the scanners (each with its Tesseract engine) this
/// slot has loaded, at most one per engine configuration and at most `capacity` in all.
///
/// A worker is used by one request at a time (the pool hands it out), so its engines are
/// never shared between requests running at once. A request whose languages or engine mode
/// differ from the defaults gets its own engine here, loaded once and kept for later
/// requests; the least recently used one is dropped beyond `capacity`.
actor ScanWorker {
    /// The scanner loaded at start, with the service's own engine settings: never dropped.
    /// Its engine is what the worker lends (`ScanWorkerPool`).
    nonisolated let initial: PoemScanner
    /// Scanners loaded for requests with other engine settings, most recently used last.
    private var others: [PoemScanner] = []
    /// How many engine configurations this worker keeps loaded.
    let capacity: Int

    /// Creates a worker holding `initial` (already loaded).
    init(initial: PoemScanner, capacity: Int) {
        self.initial = initial
        self.capacity = max(1, capacity)
    }

    /// Every scanner loaded.
    private var scanners: [PoemScanner] { [initial] + others }

    /// How many engines are loaded.
    var loadedEngines: Int { 1 + others.count }

    /// Whether every engine of this worker is idle now (none still finishing a recognition
    /// whose caller stopped waiting).
    var enginesIdle: Bool { scanners.allSatisfy { !$0.isWorking } }

    /// Returns once every engine of this worker has finished what it was given, including a
    /// recognition whose caller stopped waiting (a time limit, a cancellation).
    func finishWork() async {
        for scanner in scanners { await scanner.finishWork() }
    }

    /// Returns once none of this worker's engines is still loading (`PoemScanner.finishLoading()`).
    func finishLoading() async {
        for scanner in scanners { await scanner.finishLoading() }
    }

    /// A scanner for `configuration` that reuses a loaded engine when one has the same engine
    /// settings, and loads one otherwise (dropping the least recently used one of those
    /// loaded for other settings beyond `capacity`; the initial one stays).
    ///
    /// - Throws: `SnapPoemError` when the engine cannot start (a language without data).
    func scanner(for configuration: ScanConfiguration) async throws(SnapPoemError) -> PoemScanner {
        let base: PoemScanner
        if configuration.engine == initial.configuration.engine {
            base = initial
        } else if let index = others.firstIndex(where: { $0.configuration.engine == configuration.engine }) {
            base = others.remove(at: index)
            others.append(base)
        } else {
            // Other languages than the service's are read by one engine, without the language
            // choice, and share the worker's orientation detector: what the memory plan counts
            // for them (`ServiceConfiguration.engineBytesPerWorker`).
            var engineOnly = ScanConfiguration()
            engineOnly.engine = configuration.engine
            engineOnly.recognitionEngines = 1
            engineOnly.choosesLanguage = false
            engineOnly.preprocessing.detectsOrientation = initial.configuration.preprocessing.detectsOrientation
            base = try await PoemScanner(configuration: engineOnly, sharingOrientationDetectorWith: initial)
            if 1 + others.count >= capacity, !others.isEmpty { others.removeFirst() }
            if 1 + others.count < capacity { others.append(base) }
        }
        return try PoemScanner(configuration: configuration, sharingEnginesWith: base)
    }
}
