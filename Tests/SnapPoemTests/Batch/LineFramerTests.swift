import Foundation
import Testing

@testable import SnapPoem

@Suite("Lines framed in one pass, with a bound: the worker protocol and manifests")
struct LineFramerTests {
    @Test("However the stream is chunked, each byte is examined once and the lines come out whole")
    func linearAndWhole() {
        // One long line of 8 MiB then short ones, fed in 64 KiB pieces as a socket gives
        // them: a framer that searched its buffer from the start for each piece would
        // examine the long line 128 times.
        let long = Data(repeating: 0x41, count: 8 << 20)
        var stream = long + Data([0x0A])
        for index in 0..<1000 { stream += Data("line \(index)\n".utf8) }
        var framer = LineFramer(maximumLineBytes: 16 << 20)
        var lines: [Data] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 65_536, stream.count)
            stream[offset..<end].withUnsafeBytes { framer.append($0) }
            while case .line(let line)? = framer.next() { lines.append(line) }
            offset = end
        }
        #expect(lines.count == 1001)
        #expect(lines.first == long)
        #expect(lines.last == Data("line 999".utf8))
        #expect(framer.examinedBytes == stream.count, "each byte once: \(framer.examinedBytes) of \(stream.count)")
        #expect(framer.pendingBytes == 0)
    }

    @Test("A line over the bound is reported once and skipped as it arrives, never buffered whole; the next line is whole")
    func tooLong() {
        var framer = LineFramer(maximumLineBytes: 1000)
        var pieces: [LineFramer.Piece] = []
        var largestPending = 0
        for _ in 0..<100 {
            framer.append(Data(repeating: 0x42, count: 500))
            while let piece = framer.next() { pieces.append(piece) }
            largestPending = max(largestPending, framer.pendingBytes)
        }
        framer.append(Data("tail\nnext\n".utf8))
        while let piece = framer.next() { pieces.append(piece) }
        #expect(pieces == [.tooLong, .line(Data("next".utf8))])
        #expect(largestPending <= 1500, "the long line is not kept: \(largestPending) bytes pending")
    }

    @Test("An empty line is a line; bytes after the last newline wait for more")
    func edges() {
        var framer = LineFramer(maximumLineBytes: 10)
        framer.append(Data("\nab".utf8))
        #expect(framer.next() == .line(Data()))
        #expect(framer.next() == nil)
        framer.append(Data("c\n".utf8))
        #expect(framer.next() == .line(Data("abc".utf8)))
    }
}
