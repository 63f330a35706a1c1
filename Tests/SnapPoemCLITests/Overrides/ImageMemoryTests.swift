import CTesseract
import Foundation
import Testing

@testable import SnapPoem

/// Leptonica's image allocator in the executable (the image-memory override,
/// `Sources/CProcessOverrides/ImageMemory.cpp`), installed in the test process as in snap-poem.
@Suite("The executable's image allocator")
struct ImageMemoryTests {
    @Test("Large image buffers arrive with their pages already in memory (the image-memory override)")
    func largeImagesPrefaulted() throws {
        // 16 MiB of pixels that nothing has touched yet: without the allocator's advice, none
        // of its pages would be resident until first use.
        let pix = try #require(PixImage.taking(pixCreateNoInit(4096, 4096, 8)))
        let start = UInt(bitPattern: pixGetData(pix.pointer))
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (start + page - 1) / page * page
        let count = Int((start + 16 << 20) / page * page - first) / Int(page)
        var resident = [UInt8](repeating: 0, count: count)
        let status = resident.withUnsafeMutableBufferPointer {
            mincore(UnsafeMutableRawPointer(bitPattern: first), count * Int(page), $0.baseAddress)
        }
        try #require(status == 0)
        let residentPages = resident.filter { $0 & 1 != 0 }.count
        #expect(residentPages == count, "\(residentPages) of \(count) pages resident")
    }
}
