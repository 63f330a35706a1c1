import Foundation
import SnapPoem
import Testing

/// The phone-size photo at full resolution: layout analysis alone takes about a second, so
/// these tests can tell a limit that holds from one that only stops recognition.
private func largeImage() throws -> PoemImage {
    try preparedSample("photo-phone-size.jpg", scaling: .original)
}

/// These tests check wall-clock bounds, so `make test` runs them on their own: in a full
/// parallel run on two cores, other tests' CPU work keeps Swift's cooperative threads busy
/// for seconds, and the measured time would be that of the queue, not of the recognizer.
@Suite("Time limit and cancellation", .serialized)
struct RecognizerControlTests {
    @Test("A short time limit returns promptly, marked timed out, even during layout analysis")
    func timeLimitHolds() async throws {
        let recognizer = try await Recognizer()
        let image = try largeImage()
        let clock = ContinuousClock()
        let start = clock.now
        let page = try await recognizer.recognize(image, options: RecognitionOptions(timeLimit: .milliseconds(100)))
        let elapsed = clock.now - start
        #expect(page.timedOut)
        // Bound = limit + grace period (150 ms); the rest is slack for a loaded machine. An
        // unbounded run of this image takes several seconds.
        #expect(elapsed < .milliseconds(100) + Recognizer.stopGracePeriod + .milliseconds(600), "took \(elapsed)")
        // The engine is still usable afterwards, and the next result is complete.
        let next = try await recognizer.recognize(try preparedSample("formats/stanza-rgb8.png"))
        #expect(!next.timedOut)
        #expect(next.text.contains("golden bowl"))
    }

    @Test("A generous time limit changes nothing")
    func generousLimit() async throws {
        let image = try preparedSample("formats/stanza-rgb8.png")
        let recognizer = try await Recognizer()
        let limited = try await recognizer.recognize(image, options: RecognitionOptions(timeLimit: .seconds(60)))
        let unlimited = try await recognizer.recognize(image)
        #expect(!limited.timedOut)
        #expect(limited.text == unlimited.text)
    }

    @Test("Cancelling the task stops recognition promptly with .cancelled")
    func cancellation() async throws {
        let recognizer = try await Recognizer()
        let image = try largeImage()
        // Cancelled once Tesseract reports its first line, whatever the machine's load made of
        // the layout analysis before it (the time limit test covers that phase).
        let (recognising, reported) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task { () async throws(SnapPoemError) -> RecognizedPage in
            defer { reported.finish() }
            return try await recognizer.recognize(image, name: "photo-phone-size.jpg", progress: { _ in reported.yield() })
        }
        for await _ in recognising { break }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        let elapsed = clock.now - start
        #expect(throws: SnapPoemError.cancelled(path: "photo-phone-size.jpg")) { try result.get() }
        #expect(elapsed < Recognizer.stopGracePeriod + .milliseconds(600), "took \(elapsed)")
    }

    @Test("An already cancelled task does not start recognising")
    func alreadyCancelled() async throws {
        let recognizer = try await Recognizer()
        let image = try preparedSample("formats/stanza-rgb8.png")
        let task = Task { () async throws(SnapPoemError) -> RecognizedPage in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await recognizer.recognize(image, name: "stanza")
        }
        let result = await task.result
        #expect(throws: SnapPoemError.cancelled(path: "stanza")) { try result.get() }
    }
}
