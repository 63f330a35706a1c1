import Synchronization

/// The engine of an idle scanner, lent to one scan of another so that the page's lines are
/// read by two engines at once (`PageReading`), and taken back between two lines as soon as
/// its owner is needed (`takeBack()`).
///
/// For front ends that keep several scanners of one engine each, side by side, such as
/// `snap-poem serve --jobs 2`: a lone request may read with the engine of a scanner no
/// request is using, and a request that arrives meanwhile gets that scanner back within a
/// line. The loan serves only the reading of the page's lines with the scanner's own
/// languages (the part that takes most of the time); layout analysis, French re-readings
/// and the coverage check stay with the borrowing scanner's engines. An engine whose
/// settings differ from the borrower's (`ScanConfiguration.engine`) is not used.
///
/// ```swift
/// import Foundation
/// import SnapPoem
///
/// var oneEngine = ScanConfiguration()
/// oneEngine.recognitionEngines = 1
/// let scanner = try await PoemScanner(configuration: oneEngine)
/// let idle = try await PoemScanner(configuration: oneEngine)
/// let upload = try Data(contentsOf: URL(fileURLWithPath: "poem.jpg"))
/// let loan = EngineLoan(lending: idle)
/// async let poem = scanner.scan(imageData: upload, name: "poem.jpg", borrowing: loan)
/// // … when `idle` is wanted for another request:
/// await loan.takeBack()
/// print(try await poem.text)
/// ```
public final class EngineLoan: Sendable {
    /// The lent engine.
    let engine: Recognizer

    private struct State {
        var takenBack = false
        /// The line queue the engine reads from while it reads.
        var queue: LineQueue?
        var reading = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Lends `lender`'s engine. The lender must not scan until the loan is taken back
    /// (`takeBack()` has returned).
    public init(lending lender: PoemScanner) {
        engine = lender.recognizer
    }

    /// Takes the engine back: no more lines are handed to it, and this returns once it has
    /// finished the line it is reading (at once when it reads none). The borrowing scan goes
    /// on with its own engines. Safe to call more than once, and after the scan has ended.
    public func takeBack() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let returned = state.withLock { state -> Bool in
                state.takenBack = true
                state.queue?.close(.bottom)
                guard state.reading else { return true }
                state.waiting.append(continuation)
                return false
            }
            if returned { continuation.resume() }
        }
    }

    /// Whether the engine was taken back.
    public var isTakenBack: Bool { state.withLock { $0.takenBack } }

    /// The engine, to read lines from `queue`'s bottom end, when it is not taken back and
    /// its settings are `configuration`; nil otherwise. `endReading()` must follow.
    func beginReading(_ queue: LineQueue, configuration: EngineConfiguration) -> Recognizer? {
        guard engine.configuration == configuration else { return nil }
        return state.withLock { state -> Recognizer? in
            guard !state.takenBack, !state.reading else { return nil }
            state.reading = true
            state.queue = queue
            return engine
        }
    }

    /// Marks the end of the reading `beginReading` started, releasing whoever waits in
    /// `takeBack()`.
    func endReading() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.reading = false
            state.queue = nil
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The loan of the scan running in this task, set by `PoemScanner.scan(imageData:name:borrowing:progress:)`.
    @TaskLocal static var current: EngineLoan?
}
