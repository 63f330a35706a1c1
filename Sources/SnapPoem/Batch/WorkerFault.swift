#if SNAP_POEM_TEST_HOOKS
    import Foundation

    /// **For tests only**: faults a batch worker injects on chosen files, so that tests can show
    /// that a crash, an abort, runaway memory, a hang or a protocol violation while reading one
    /// image costs only that image. Only debug builds have it: Package.swift defines
    /// `SNAP_POEM_TEST_HOOKS` for the debug configuration alone, so release builds contain
    /// neither this type nor any look at its variable.
    ///
    /// Read from the environment variable `SNAP_POEM_TEST_ONLY_WORKER_FAULTS`, which nothing
    /// sets by accident: a comma-separated list of `FAULT:NAME`, where NAME is an input's path
    /// below its folder (or its file name), e.g.
    /// `SNAP_POEM_TEST_ONLY_WORKER_FAULTS=trap:b.png,hang:sub/c.jpg`. Only workers read it;
    /// the variable has no effect on a plain `snap-poem` run or on the library.
    enum WorkerFault: String, Sendable, CaseIterable {
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
        /// Says `ready` while it is reading the image, as a worker that lost track of its
        /// request would, then reads on: a protocol violation the supervisor must not let
        /// swallow the image.
        case lie

        /// The environment variable's name.
        static let environmentVariable = "SNAP_POEM_TEST_ONLY_WORKER_FAULTS"

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

        /// Causes the fault; returns only after `lie`.
        func strike(channel: Int32) {
            switch self {
            case .lie:
                _ = WorkerLine.send(WorkerLine.encode(WorkerMessage.ready()), to: channel)
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
#endif
