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

    @Test("The first leading lines may settle the page early: asked about each longer run from the first, two lines at least")
    func settleEarly() {
        let asked = Mutex<[[String]]>([])
        let decided = Mutex(false)
        let queue = LineQueue(
            boxes: Self.boxes, leading: 4,
            settlesEarly: { run in
                asked.withLock { $0.append(run.map(\.text)) }
                return run.count >= 3
            },
            decide: { _ in
                decided.withLock { $0 = true }
                return true
            })
        for _ in 0..<4 { _ = queue.take(from: .top) }
        queue.deliver(Self.line("Demain"), at: 0)
        // The second line read first is no run from the first: nothing asked yet.
        queue.deliver(Self.line("je partirai"), at: 2)
        #expect(asked.withLock { $0 }.isEmpty)
        queue.deliver(Self.line("dès l'aube"), at: 1)
        #expect(asked.withLock { $0 } == [["Demain", "dès l'aube", "je partirai"]])
        #expect(queue.decided && queue.stoppedAfterLeading)
        #expect(queue.take(from: .top) == nil && queue.take(from: .bottom) == nil)
        // The last leading line, read after the early stop, is kept; the stop stands.
        queue.deliver(Self.line("Vois-tu"), at: 3)
        #expect(queue.lines.map { $0?.text } == ["Demain", "dès l'aube", "je partirai", "Vois-tu", nil, nil])
        #expect(!decided.withLock { $0 })

        // A run that does not settle leaves the decision to the leading lines together.
        let patient = LineQueue(boxes: Self.boxes, leading: 3, settlesEarly: { _ in false }, decide: { _ in true })
        for position in 0..<3 {
            _ = patient.take(from: .top)
            patient.deliver(Self.line("line"), at: position)
        }
        #expect(patient.decided && !patient.stoppedAfterLeading)
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
