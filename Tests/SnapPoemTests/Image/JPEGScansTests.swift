import Foundation
import Testing

@testable import SnapPoem

@Suite("JPEG scans are counted before decoding: a file of thousands is refused, an ordinary one is read")
struct JPEGScansTests {
    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample(name)))
    }

    /// `jpeg` with `count` more scans before its end: each an AC scan header of component 1
    /// and two bytes of entropy-coded data, as cheap to write as they are dear to decode.
    static func adding(scans count: Int, to jpeg: Data) -> Data {
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00, 0x12, 0x34]
        var result = Data(jpeg.dropLast(2))
        for _ in 0..<count { result.append(contentsOf: scan) }
        result.append(contentsOf: [0xFF, 0xD9])
        return result
    }

    @Test("The samples' scans: one in a baseline JPEG, a handful in a progressive one")
    func samples() throws {
        #expect(JPEGScans.count(in: try Self.sample("formats/stanza-baseline.jpg"), upTo: 500) == 1)
        let progressive = try #require(JPEGScans.count(in: try Self.sample("formats/stanza-progressive.jpg"), upTo: 500))
        #expect((2...20).contains(progressive), "\(progressive) scans")
        #expect(JPEGScans.count(in: try Self.sample("Lenore.png"), upTo: 500) == nil)
    }

    @Test("Past 500 scans the file is refused from its structure; the count stops at the limit")
    func refusedPastTheLimit() throws {
        let jpeg = try Self.sample("formats/stanza-progressive.jpg")
        let own = try #require(JPEGScans.count(in: jpeg, upTo: 500))
        let within = Self.adding(scans: ImageDecoder.maximumJPEGScans - own, to: jpeg)
        #expect(JPEGScans.count(in: within, upTo: 500) == 500)
        let bomb = Self.adding(scans: 6_000, to: jpeg)
        #expect(JPEGScans.count(in: bomb, upTo: 500) == 501)
        #expect(
            throws: SnapPoemError.unsupportedImageFormat(
                path: "scans.jpg",
                detail:
                    "a JPEG of more than 500 scans, which would hold its decoder for minutes whatever its size; save it again as an ordinary JPEG or PNG"
            )
        ) { try ImageDecoder.checkHeader(data: bomb, name: "scans.jpg") }
        // Restart markers, fill bytes and stuffed FF 00 inside a scan's data are not markers.
        let stuffed = Data([0xFF, 0xD8]) + Data([0xFF, 0xDA, 0x00, 0x02, 0x11, 0xFF, 0x00, 0x22, 0xFF, 0xD3, 0x33, 0xFF, 0xFF, 0xD9])
        #expect(JPEGScans.count(in: stuffed, upTo: 500) == 1)
    }
}
