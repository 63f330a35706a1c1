import CTesseractShim
import Foundation
import Testing

@testable import SnapPoem

/// What importing SnapPoem changes in a host process, and what it leaves alone
/// (`LibrarySetup`).
@Suite("The library is a guest in its host's process")
struct LibraryGuestTests {
    private typealias SetLevels = @convention(c) (Int32) -> Void
    private typealias GetLevels = @convention(c) () -> Int32

    @Test("A call into Tesseract keeps OpenMP to one thread on its thread, and gives the thread its own setting back")
    func openMPRestored() throws {
        let set = unsafeBitCast(
            try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels")), to: SetLevels.self)
        let get = unsafeBitCast(
            try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_get_max_active_levels")), to: GetLevels.self)
        nonisolated(unsafe) var seen: [Int32] = []
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            set(3)
            seen.append(get())
            let state = LibrarySetup.enterTesseract()
            seen.append(get())
            LibrarySetup.leaveTesseract(state)
            seen.append(get())
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seen == [3, 0, 3])
    }
}
