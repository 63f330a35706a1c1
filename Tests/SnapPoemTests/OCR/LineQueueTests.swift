import Synchronization
import Testing

@testable import SnapPoem

/// The queue that hands a page's lines to two engines one at a time (`PageReading`).
@Suite("Lines handed out one at a time")
struct LineQueueTests {
    static let boxes = (0..<6).map { BoundingBox(left: 0, top: $0 * 20, right: 100, bottom: $0 * 20 + 10) }

    static func line(_ text: String) -> RecognizedLine {
        RecognizedLine(words: [RecognizedWord(text: text, confidence: 90, boundingBox: boxes[0])], boundingBox: boxes[0], confidence: 90)
    }

    @Test("The leading lines go first, in order; then the top engine reads down and the bottom one up until they meet")
    func order() {
        let queue = LineQueue(boxes: Self.boxes, leading: 2) { _ in true }
        #expect(queue.take(from: .bottom)?.position == 0)
        #expect(queue.take(from: .top)?.position == 1)
        #expect(queue.take(from: .bottom)?.position == 5)
        #expect(queue.take(from: .top)?.position == 2)
        #expect(queue.take(from: .bottom)?.position == 4)
        #expect(queue.take(from: .top)?.position == 3)
        #expect(queue.take(from: .top) == nil)
        #expect(queue.take(from: .bottom) == nil)
    }

    @Test("Once the leading lines are read the decision is made; a stop drops what was read past them, and hands out no more")
    func stop() {
        let judged = Mutex<[String]>([])
        let queue = LineQueue(boxes: Self.boxes, leading: 2) { lines in
            judged.withLock { $0 = lines.map(\.text) }
            return false
        }
        for _ in 0..<3 { _ = queue.take(from: .bottom) }  // 0, 1, then 5 while 0 and 1 are read
        queue.deliver(Self.line("lointain"), at: 5)
        queue.deliver(Self.line("Demain"), at: 0)
        #expect(!queue.decided)
        queue.deliver(Self.line("dès l'aube"), at: 1)
        #expect(queue.decided && queue.stoppedAfterLeading)
        #expect(judged.withLock { $0 } == ["Demain", "dès l'aube"])
        #expect(queue.lines.map { $0?.text } == ["Demain", "dès l'aube", nil, nil, nil, nil])
        #expect(queue.take(from: .top) == nil)
        // A line finished after the stop is dropped too.
        queue.deliver(Self.line("late"), at: 4)
        #expect(queue.lines[4] == nil)
    }

    @Test("Going on keeps the lines read while the leading ones were judged; no leading lines means no wait")
    func goOn() {
        let queue = LineQueue(boxes: Self.boxes, leading: 1) { _ in true }
        _ = queue.take(from: .top)
        _ = queue.take(from: .bottom)
        queue.deliver(Self.line("end"), at: 5)
        queue.deliver(Self.line("start"), at: 0)
        #expect(queue.decided && !queue.stoppedAfterLeading)
        #expect(queue.lines[5]?.text == "end")
        let none = LineQueue(boxes: Self.boxes, leading: 0) { _ in false }
        #expect(none.decided && none.stoppedAfterLeading)
    }
}
