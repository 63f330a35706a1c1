import Foundation
import SnapPoem

/// How the service reads poems and how much work it takes on.
public struct ServiceConfiguration: Sendable {
    /// The settings every request starts from (languages, tessdata folder); a request's
    /// fields change them for that request only.
    public var scan: ScanConfiguration
    /// How many images are read at once; each worker loads its own engine (≈ 40 MB for
    /// `eng+fra`) once, at start.
    public var workers: Int
    /// How many requests may wait for a worker; more are refused at once with 503.
    public var queueLimit: Int
    /// The longest recognition of one image; also what a request that names no `timeout`
    /// gets.
    public var maxTimeLimit: Duration
    /// How many engine configurations (languages, engine mode) each worker keeps loaded for
    /// requests that ask for other languages than the defaults.
    public var engineSetsPerWorker: Int
    /// The largest request body the server in front takes (`--max-upload-mb`), in bytes: what
    /// the page and the OpenAPI document tell clients, and what decides whether the page can
    /// hand a photo back with its form after a mistake. The server enforces its own limit;
    /// `snap-poem serve` sets both from the same option.
    public var maxUploadBytes: Int

    /// Creates a configuration; the defaults suit a small machine.
    public init(
        scan: ScanConfiguration = ScanConfiguration(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        queueLimit: Int = 16,
        maxTimeLimit: Duration = .seconds(30),
        engineSetsPerWorker: Int = 2,
        maxUploadBytes: Int = 20 << 20
    ) {
        self.scan = scan
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.maxTimeLimit = maxTimeLimit
        self.engineSetsPerWorker = max(1, engineSetsPerWorker)
        self.maxUploadBytes = max(1, maxUploadBytes)
    }

    /// The scan each worker's own engines are loaded for: `scan`, with one engine per image
    /// when several workers run side by side (together they already use every core, and a
    /// second engine per worker would cost the memory that larger photos need; a lone
    /// worker reads each image with `scan.recognitionEngines`).
    public var workerScan: ScanConfiguration {
        var scan = self.scan
        if workers > 1 { scan.recognitionEngines = 1 }
        return scan
    }

    /// The most memory one worker's engines hold once all are loaded: those of `workerScan`
    /// (`eng+fra` ones, and as many French-only ones when the language is chosen), the
    /// orientation detector its scanners share, and one engine for each other language set it
    /// keeps (`engineSetsPerWorker`; requests for other languages are read by one engine,
    /// without the language choice). What `MemoryPlan` counts.
    public var engineBytesPerWorker: Int {
        let scan = workerScan
        let engines = scan.mostEnginesLoaded
        let choosesFrench = engines > 1 && scan.choosesLanguage && scan.engine.languages.codes.sorted() == ["eng", "fra"]
        let reading = choosesFrench ? engines / 2 : engines
        var bytes = reading * MemoryPlan.engineBytes + (engines - reading) * MemoryPlan.frenchEngineBytes
        if scan.preprocessing.detectsOrientation { bytes += MemoryPlan.orientationDetectorBytes }
        // At least one other set: with room for none, a request for other languages still
        // loads its engine for as long as it is read.
        return bytes + max(1, engineSetsPerWorker - 1) * MemoryPlan.engineBytes
    }
}
