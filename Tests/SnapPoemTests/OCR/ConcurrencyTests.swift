import Foundation
import SnapPoem
import Testing

@Suite("Reuse and concurrency: one engine per worker")
struct ConcurrencyTests {
    static let images = ["formats/stanza-rgb8.png", "formats/stanza-gray.jpg", "formats/stanza.webp", "orientation/orientation-1.jpg"]

    @Test("One engine recognises several images in turn exactly as fresh engines do")
    func reuse() async throws {
        let reused = try await Recognizer()
        for name in Self.images + Self.images.reversed() {
            let image = try preparedSample(name)
            let again = try await reused.recognize(image)
            let fresh = try await Recognizer().recognize(image)
            #expect(again.text == fresh.text, "\(name)")
            #expect(again.words == fresh.words, "\(name)")
        }
    }

    @Test("Several engines on several threads at once give identical results")
    func parallelEngines() async throws {
        let prepared = try Self.images.map { try preparedSample($0) }
        let sequential = try await {
            let recognizer = try await Recognizer()
            var texts: [String] = []
            for image in prepared { texts.append(try await recognizer.recognize(image).text) }
            return texts
        }()
        let workers = 3
        let results = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let recognizer = try await Recognizer()
                    var texts: [(Int, String)] = []
                    for (index, image) in prepared.enumerated() { texts.append((index, try await recognizer.recognize(image).text)) }
                    _ = worker
                    return texts
                }
            }
            var all: [[(Int, String)]] = []
            for try await texts in group { all.append(texts) }
            return all
        }
        #expect(results.count == workers)
        for texts in results {
            #expect(texts.map(\.1) == sequential)
        }
    }

    @Test("Many tasks sharing one recognizer are served one at a time, all correctly")
    func sharedRecognizer() async throws {
        let recognizer = try await Recognizer()
        let image = try preparedSample("formats/stanza-rgb8.png")
        let expected = try await recognizer.recognize(image).text
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try await recognizer.recognize(image).text } }
            var texts: [String] = []
            for try await text in group { texts.append(text) }
            return texts
        }
        #expect(texts == Array(repeating: expected, count: 4))
    }
}
