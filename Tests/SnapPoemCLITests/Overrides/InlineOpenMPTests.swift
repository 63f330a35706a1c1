import CProcessOverrides
import Foundation
import Testing

@testable import SnapPoem

/// Tesseract's OpenMP regions run inline on the threads that run it
/// (the inline-openmp override, `Sources/CProcessOverrides/SerialOpenMP.cpp`): the entry points behave as a team of one
/// there, go on to libgomp elsewhere, and the reading is the same as libgomp's.
@Suite("Tesseract's OpenMP regions run inline on its threads, and read as libgomp's", .serialized)
struct InlineOpenMPTests {
    private typealias Body = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private typealias Parallel = @convention(c) (Body, UnsafeMutableRawPointer?, UInt32, UInt32) -> Void
    private typealias ParallelSections = @convention(c) (Body, UnsafeMutableRawPointer?, UInt32, UInt32, UInt32) -> Void
    private typealias SectionsNext = @convention(c) () -> UInt32
    private typealias ThreadQuery = @convention(c) () -> Int32

    /// The definition the dynamic linker gives a library that calls `name`, as libtesseract's
    /// calls are bound.
    private static func bound<Function>(_ name: String, as type: Function.Type) throws -> Function {
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), "\(name) is not bound")
        return unsafeBitCast(symbol, to: type)
    }

    /// What one region saw: each running thread's number and team size, and the sections
    /// handed out. Touched under `lock` (libgomp's threads run the body at once).
    private final class Observed: @unchecked Sendable {
        let lock = NSLock()
        var threads: [(number: Int32, of: Int32)] = []
        var sections: [UInt32] = []
        var ranOn: [pthread_t] = []
    }

    private static let recordThread: Body = { context in
        let observed = Unmanaged<Observed>.fromOpaque(context!).takeUnretainedValue()
        let number = (try? InlineOpenMPTests.bound("omp_get_thread_num", as: ThreadQuery.self))?() ?? -1
        let size = (try? InlineOpenMPTests.bound("omp_get_num_threads", as: ThreadQuery.self))?() ?? -1
        observed.lock.lock()
        observed.threads.append((number, size))
        observed.ranOn.append(pthread_self())
        observed.lock.unlock()
    }

    private static let takeSections: Body = { context in
        let observed = Unmanaged<Observed>.fromOpaque(context!).takeUnretainedValue()
        guard let next = try? InlineOpenMPTests.bound("GOMP_sections_next", as: SectionsNext.self) else { return }
        var section = next()
        while section != 0 {
            observed.lock.lock()
            observed.sections.append(section)
            observed.lock.unlock()
            section = next()
        }
    }

    /// Runs `body` on a thread of its own and waits for it.
    private static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test("A thread that runs Tesseract runs a region once, itself, as thread 0 of 1; its sections 1…count in order")
    func inlineOnTesseractThreads() throws {
        let parallel = try Self.bound("GOMP_parallel", as: Parallel.self)
        let parallelSections = try Self.bound("GOMP_parallel_sections", as: ParallelSections.self)
        let region = Observed(), sections = Observed()
        nonisolated(unsafe) var caller: pthread_t?
        nonisolated(unsafe) var inline: Int32 = 0
        nonisolated(unsafe) var after: Int32 = 1
        Self.onNewThread {
            do {
                let state = LibrarySetup.enterTesseract()
                defer { LibrarySetup.leaveTesseract(state) }
                inline = snap_poem_runs_openmp_inline()
                caller = pthread_self()
                parallel(Self.recordThread, Unmanaged.passUnretained(region).toOpaque(), 4, 0)
                parallelSections(Self.takeSections, Unmanaged.passUnretained(sections).toOpaque(), 4, 3, 0)
            }
            after = snap_poem_runs_openmp_inline()
        }
        #expect(inline == 1)
        #expect(after == 0, "the thread's regions go to libgomp again once its call into Tesseract is over")
        #expect(region.threads.map(\.number) == [0])
        #expect(region.threads.map(\.of) == [1])
        #expect(region.ranOn.count == 1 && caller.map { pthread_equal(region.ranOn[0], $0) != 0 } == true)
        #expect(sections.sections == [1, 2, 3])
    }

    @Test("Any other thread's region goes to libgomp: a team of the size asked for, each thread numbered once")
    func otherThreadsGoToLibgomp() throws {
        let parallel = try Self.bound("GOMP_parallel", as: Parallel.self)
        let region = Observed()
        nonisolated(unsafe) var inline: Int32 = 1
        Self.onNewThread {
            inline = snap_poem_runs_openmp_inline()
            parallel(Self.recordThread, Unmanaged.passUnretained(region).toOpaque(), 2, 0)
        }
        #expect(inline == 0)
        // OMP_THREAD_LIMIT (if the environment sets it) may cap the team; libgomp's numbering holds.
        let size = Int(region.threads.first?.of ?? 0)
        #expect(size >= 1 && size <= 2)
        #expect(region.threads.count == size)
        #expect(region.threads.map(\.number).sorted() == Array(0..<Int32(size)))
        if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil {
            #expect(size == 2, "libgomp was not reached: \(region.threads)")
        }
    }

    @Test(
        "The same words and confidences with the regions inline as with libgomp",
        arguments: ["Lenore.png", "chanson-d-automne.png", "photo-blurred.jpg"])
    func sameReading(sample: String) async throws {
        let image = try preparedSample(sample)
        let recognizer = try await Recognizer()
        let read = try await recognizer.recognize(image)
        // Only recognitions started while the override is off go to libgomp.
        let reference = try await OverrideSwitch.off(SNAP_POEM_OVERRIDE_INLINE_OPENMP) { try await recognizer.recognize(image) }
        #expect(read.words.count > 10, "\(sample): \(read.words.count) words")
        #expect(read.words.map(\.text) == reference.words.map(\.text), "\(sample)")
        #expect(read.words.map(\.confidence) == reference.words.map(\.confidence), "\(sample)")
        #expect(read.text == reference.text, "\(sample)")
    }
}
