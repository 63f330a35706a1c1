import Synchronization

/// The engines one scanner reads a page with: its own `Recognizer`, a second one for the
/// second core (`ScanConfiguration.recognitionEngines` = 2), and French-only engines for
/// French poems and lines (`ScanConfiguration.choosesLanguage`).
///
/// Only the first engine is loaded before the scanner exists (so that a missing language is
/// an error of `PoemScanner.init`). The second one loads in the background from the start,
/// while the first image is decoded and prepared; the French ones load the first time a
/// page turns out to be French. An engine that cannot load (memory, a missing `fra`) is left
/// out and the page is read with the others.
final class ReadingEngines: Sendable {
    /// The scanner's own engine.
    let primary: Recognizer
    /// How many engines read one page at once (1 or 2).
    let count: Int
    private let second: Task<Recognizer?, Never>?
    private let french: Locked<[Task<Recognizer?, Never>]> = Locked([])
    private let frenchConfiguration: EngineConfiguration?
    /// Every engine loaded so far, the primary one first: what must be idle before the
    /// scanner is used again after a call returned early (a time limit, a cancellation).
    private let loaded: LoadedEngines

    /// The language set French pages and lines are read with: the French model alone.
    static let frenchLanguages = try! LanguageSet(parsing: "fra")

    /// Engines around `primary`, started with `primary`'s configuration.
    init(primary: Recognizer, count: Int, choosesLanguage: Bool) {
        self.primary = primary
        self.count = max(1, min(count, 2))
        let configuration = primary.configuration
        let loaded = LoadedEngines(primary)
        self.loaded = loaded
        self.second =
            self.count > 1
            ? Task.detached(priority: .userInitiated) { loaded.add(try? await Recognizer(configuration: configuration)) }
            : nil
        if choosesLanguage, Self.choosesLanguage(for: configuration.languages) {
            var french = configuration
            french.languages = Self.frenchLanguages
            frenchConfiguration = french
        } else {
            frenchConfiguration = nil
        }
    }

    /// Whether the language of a poem can be chosen among `languages`: English and French
    /// are both loaded, so the English reading is this set and the French one `fra` alone.
    static func choosesLanguage(for languages: LanguageSet) -> Bool {
        languages.codes.contains("eng") && languages.codes.contains("fra") && languages.codes.count == 2
    }

    /// Whether French pages and lines have engines of their own.
    var readsFrench: Bool { frenchConfiguration != nil }

    /// The engines that read a page with the configured languages (the second one once it
    /// has loaded; waiting for it costs nothing after the first image).
    func workers() async -> [Recognizer] {
        guard let second else { return [primary] }
        if let loaded = await second.value { return [primary, loaded] }
        return [primary]
    }

    /// The French-only engines, as many as `count`, loaded the first time they are asked
    /// for (in parallel); empty when none can load.
    func frenchWorkers() async -> [Recognizer] {
        guard let configuration = frenchConfiguration else { return [] }
        let loadedEngines = loaded
        let tasks = french.withLock { tasks -> [Task<Recognizer?, Never>] in
            while tasks.count < count {
                tasks.append(
                    Task.detached(priority: .userInitiated) {
                        loadedEngines.add(try? await Recognizer(configuration: configuration))
                    })
            }
            return tasks
        }
        var loaded: [Recognizer] = []
        for task in tasks {
            if let recognizer = await task.value { loaded.append(recognizer) }
        }
        return loaded
    }
}

extension ReadingEngines {
    /// Whether any loaded engine is still working, perhaps on a recognition whose caller
    /// already stopped waiting for it.
    var isWorking: Bool { loaded.all.contains { $0.isWorking } }

    /// How many engines have loaded so far, the primary one included.
    var loadedCount: Int { loaded.all.count }

    /// Returns once every loaded engine has finished what it was given.
    func finishWork() async {
        for engine in loaded.all { await engine.finishWork() }
    }

    /// Returns once no engine is still loading: the second one, which starts loading with the
    /// scanner, and French ones asked for. Loading takes a fraction of a second; unlike
    /// `finishWork()`, this never waits for a recognition.
    func finishLoading() async {
        _ = await second?.value
        for task in french.withLock({ $0 }) { _ = await task.value }
    }
}

/// The engines a `ReadingEngines` has loaded, added from the tasks that load them.
private final class LoadedEngines: Sendable {
    private let engines: Locked<[Recognizer]>

    init(_ primary: Recognizer) { engines = Locked([primary]) }

    /// Every engine loaded so far.
    var all: [Recognizer] { engines.withLock { $0 } }

    /// Records `engine` (when it loaded) and hands it back.
    func add(_ engine: Recognizer?) -> Recognizer? {
        if let engine { engines.withLock { $0.append(engine) } }
        return engine
    }
}
