import Foundation

/// **For tests only.** Faults a batch worker injects on chosen files, so that tests can show
/// that a crash, an abort, runaway memory or a hang while reading one image costs only that
/// image.
///
/// Read from the environment variable `SNAP_POEM_TEST_ONLY_WORKER_FAULTS`, which nothing
/// sets by accident: a comma-separated list of `FAULT:NAME`, where NAME is an input's path
/// below its folder (or its file name), e.g.
/// `SNAP_POEM_TEST_ONLY_WORKER_FAULTS=trap:b.png,hang:sub/c.jpg`. Only workers read it;
/// the variable has no effect on a plain `snap-poem` run or on the library.
public enum WorkerFault: String, Sendable, CaseIterable {
    /// A Swift runtime trap (SIGILL on x86-64, SIGTRAP on arm64), like a failed precondition.
    case trap
    /// `abort()` (SIGABRT), like C++'s `std::bad_alloc` escaping Tesseract.
    case abort
    /// A segmentation fault (SIGSEGV).
    case segfault
    /// Sleeps forever, like a decoder caught in a pathological file.
    case hang
    /// Allocates and touches memory until an allocation fails, then aborts: runaway memory
    /// against the worker's memory limit.
    case memory

    /// The environment variable's name.
    public static let environmentVariable = "SNAP_POEM_TEST_ONLY_WORKER_FAULTS"

    /// The faults by input name, from `environment`; empty when the variable is not set.
    static func plan(from environment: [String: String]) -> [String: WorkerFault] {
        guard let text = environment[environmentVariable] else { return [:] }
        var plan: [String: WorkerFault] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let fault = WorkerFault(rawValue: String(parts[0])) else { continue }
            plan[String(parts[1])] = fault
        }
        return plan
    }

    /// Causes the fault; returns only for none of them.
    func strike() -> Never {
        switch self {
        case .trap:
            preconditionFailure("injected trap (\(Self.environmentVariable))")
        case .abort:
            Foundation.abort()
        case .segfault:
            _ = raise(SIGSEGV)
            Foundation.abort()
        case .hang:
            while true { sleep(3600) }
        case .memory:
            let chunk = 64 << 20
            var blocks: [UnsafeMutableRawPointer] = []
            while let block = malloc(chunk) {
                memset(block, 1, chunk)
                blocks.append(block)
            }
            FileHandle.standardError.write(Data("injected runaway memory: allocation failed after \(blocks.count * 64) MiB\n".utf8))
            Foundation.abort()
        }
    }
}
