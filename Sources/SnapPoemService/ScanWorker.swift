import SnapPoem

/// One recognition slot of the service: the scanners (each with its Tesseract engine) this
/// slot has loaded, at most one per engine configuration and at most `capacity` in all.
///
/// A worker is used by one request at a time (the pool hands it out), so its engines are
/// never shared between requests running at once. A request whose languages or engine mode
/// differ from the defaults gets its own engine here, loaded once and kept for later
/// requests; the least recently used one is dropped beyond `capacity`.
actor ScanWorker {
    /// The scanners loaded, most recently used last.
    private var scanners: [PoemScanner] = []
    /// How many engine configurations this worker keeps loaded.
    let capacity: Int

    /// Creates a worker holding `initial` (already loaded).
    init(initial: PoemScanner, capacity: Int) {
        scanners = [initial]
        self.capacity = max(1, capacity)
    }

    /// How many engines are loaded.
    var loadedEngines: Int { scanners.count }

    /// Whether every engine of this worker is idle now (none still finishing a recognition
    /// whose caller stopped waiting).
    var enginesIdle: Bool { scanners.allSatisfy { !$0.isWorking } }

    /// Returns once every engine of this worker has finished what it was given, including a
    /// recognition whose caller stopped waiting (a time limit, a cancellation).
    func finishWork() async {
        for scanner in scanners { await scanner.finishWork() }
    }

    /// A scanner for `configuration` that reuses a loaded engine when one has the same engine
    /// settings, and loads one otherwise.
    ///
    /// - Throws: `SnapPoemError` when the engine cannot start (a language without data).
    func scanner(for configuration: ScanConfiguration) async throws(SnapPoemError) -> PoemScanner {
        let base: PoemScanner
        if let index = scanners.firstIndex(where: { $0.configuration.engine == configuration.engine }) {
            base = scanners.remove(at: index)
        } else {
            // Other languages than the service's are read by one engine, without the language
            // choice, and share the worker's orientation detector: what the memory plan counts
            // for them (`ServiceConfiguration.engineBytesPerWorker`).
            var engineOnly = ScanConfiguration()
            engineOnly.engine = configuration.engine
            engineOnly.recognitionEngines = 1
            engineOnly.choosesLanguage = false
            base = try await PoemScanner(configuration: engineOnly, sharingOrientationDetectorWith: scanners.last)
            if scanners.count >= capacity { scanners.removeFirst() }
        }
        scanners.append(base)
        return try PoemScanner(configuration: configuration, sharingEnginesWith: base)
    }
}
