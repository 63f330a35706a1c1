import Foundation
import Synchronization
import Testing

@testable import SnapPoem

@Suite("Batch results as an AsyncSequence: order, progress, back-pressure, cancellation")
struct BatchResultsTests {
    static let names = ["formats/stanza-rgb8.png", "formats/empty.png", "formats/stanza-gray.png", "formats/not-an-image.png"]
    static let inputs = names.map { BatchInput(path: Fixtures.sample($0), relativePath: $0) }

    @Test("Input order hands the results over by index, and completion order gives the same outcomes")
    func orders() async throws {
        let scanner = BatchScanner(workers: 2)
        var inOrder: [BatchResult] = []
        for try await result in scanner.results(for: Self.inputs, order: .input) { inOrder.append(result) }
        var asFinished: [BatchResult] = []
        for try await result in scanner.results(for: Self.inputs) { asFinished.append(result) }

        #expect(inOrder.map(\.index) == [0, 1, 2, 3])
        #expect(inOrder.map(\.input) == Self.inputs)
        #expect(asFinished.map(\.index).sorted() == [0, 1, 2, 3])
        let texts = { (results: [BatchResult]) in
            Dictionary(uniqueKeysWithValues: results.map { ($0.index, (try? $0.outcome.get())?.text) })
        }
        #expect(texts(inOrder) == texts(asFinished))
        #expect(texts(inOrder)[0]??.contains("golden bowl") == true)
        #expect(throws: SnapPoemError.emptyFile(path: Self.inputs[1].path)) { try inOrder[1].outcome.get() }
        #expect(throws: SnapPoemError.self) { try inOrder[3].outcome.get() }
    }

    @Test("Progress is labelled with its image and comes before that image's result")
    func progress() async throws {
        var progressByIndex: [Int: [BatchScanner.Progress]] = [:]
        var resultIndices: [Int] = []
        for try await event in BatchScanner(workers: 2).events(for: Self.inputs, order: .input) {
            switch event {
            case .progress(let progress):
                #expect(!resultIndices.contains(progress.index), "progress of \(progress.index) after its result")
                #expect(progress.input == Self.inputs[progress.index])
                #expect((0...100).contains(progress.percent))
                #expect(progress.total == 4)
                #expect((0...4).contains(progress.completed))
                #expect((0...1).contains(progress.fractionCompleted))
                progressByIndex[progress.index, default: []].append(progress)
            case .result(let result):
                resultIndices.append(result.index)
            }
        }
        #expect(resultIndices == [0, 1, 2, 3])
        // Only the two real images are recognised, so only they can report progress.
        #expect(!progressByIndex.isEmpty)
        #expect(Set(progressByIndex.keys).isSubset(of: [0, 2]))
    }

    @Test("An engine that cannot start ends the sequence with its error")
    func engineError() async throws {
        var configuration = ScanConfiguration()
        configuration.engine.languages = try LanguageSet(parsing: "xx_missing")
        var delivered = 0
        await #expect {
            for try await _ in BatchScanner(configuration: configuration, workers: 2).results(for: Self.inputs) { delivered += 1 }
        } throws: { error in
            guard case .languageNotAvailable(let language, _, _) = error as? SnapPoemError else { return false }
            return language == "xx_missing"
        }
        #expect(delivered == 0)
    }

    @Test("Cancelling the iterating task stops the batch and throws cancelled")
    func cancellation() async throws {
        let inputs = Array(repeating: Self.inputs[0], count: 8)
        let delivered = Atomic<Int>(0)
        let iteration = Task { () async -> SnapPoemError? in
            do throws(SnapPoemError) {
                for try await _ in BatchScanner(workers: 1).results(for: inputs) {
                    delivered.add(1, ordering: .relaxed)
                    withUnsafeCurrentTask { $0?.cancel() }
                }
                return nil
            } catch {
                return error
            }
        }
        #expect(await iteration.value == .cancelled(path: "batch of 8 images"))
        #expect(delivered.load(ordering: .relaxed) == 1)
    }

    @Test("Dropping the iterator, as leaving a loop early does, cancels the batch")
    func droppedIterator() async throws {
        let inputs = Array(repeating: Self.inputs[0], count: 8)
        var iteration: BatchIteration? = BatchIteration(
            scanner: BatchScanner(workers: 1), inputs: inputs, order: .completion, reportsProgress: false)
        let channel = try #require(iteration?.channel)
        guard case .result(let first) = try await iteration?.next() else {
            Issue.record("expected a result")
            return
        }
        #expect(first.index == 0)
        #expect(!channel.isCancelled)
        iteration = nil
        #expect(channel.isCancelled)
    }

    @Test("An empty batch ends at once")
    func emptyBatch() async throws {
        var count = 0
        for try await _ in BatchScanner(workers: 2).events(for: []) { count += 1 }
        #expect(count == 0)
    }
}

/// The channel between the workers and the iterating task, driven with made-up results (no
/// engine), so that order, back-pressure and cancellation can be checked exactly.
@Suite("The batch channel: order, back-pressure and cancellation")
struct BatchChannelTests {
    static func result(_ index: Int) -> BatchResult {
        let input = BatchInput(path: "image-\(index).png")
        return BatchResult(index: index, input: input, outcome: .failure(.fileNotFound(path: input.path)))
    }

    static func inputs(_ count: Int) -> [BatchInput] { (0..<count).map { BatchInput(path: "image-\($0).png") } }

    static func nextIndex(_ channel: BatchChannel) async throws -> Int? {
        switch try await channel.next() {
        case .result(let result): return result.index
        case .progress(let progress): return -1 - progress.index
        case nil: return nil
        }
    }

    @Test("Completion order hands results over as they came; input order sorts them")
    func orders() async throws {
        for (order, expected) in [(BatchScanner.ResultOrder.completion, [2, 0, 1]), (.input, [0, 1, 2])] {
            let channel = BatchChannel(inputs: Self.inputs(3), order: order, capacity: 4)
            for index in [2, 0, 1] { await channel.send(Self.result(index)) }
            channel.finish(.success(()))
            var seen: [Int] = []
            while let index = try await Self.nextIndex(channel) { seen.append(index) }
            #expect(seen == expected, "\(order)")
        }
    }

    @Test("A worker waits while the buffer is full, and goes on when a result is taken")
    func backPressure() async throws {
        let channel = BatchChannel(inputs: Self.inputs(3), order: .completion, capacity: 2)
        let accepted = Atomic<Int>(0)
        let worker = Task {
            for index in 0..<3 {
                await channel.send(Self.result(index))
                accepted.add(1, ordering: .sequentiallyConsistent)
            }
        }
        while accepted.load(ordering: .sequentiallyConsistent) < 2 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(accepted.load(ordering: .sequentiallyConsistent) == 2, "the third result was accepted into a full buffer")
        #expect(try await Self.nextIndex(channel) == 0)
        await worker.value
        #expect(accepted.load(ordering: .sequentiallyConsistent) == 3)
        channel.finish(.success(()))
        #expect(try await Self.nextIndex(channel) == 1)
        #expect(try await Self.nextIndex(channel) == 2)
        #expect(try await Self.nextIndex(channel) == nil)
    }

    @Test("In input order the result due next gets in even when the buffer is full")
    func dueResultGetsIn() async throws {
        let channel = BatchChannel(inputs: Self.inputs(3), order: .input, capacity: 1)
        await channel.send(Self.result(1))
        let late = Task { await channel.send(Self.result(2)) }
        await channel.send(Self.result(0))
        #expect(try await Self.nextIndex(channel) == 0)
        #expect(try await Self.nextIndex(channel) == 1)
        await late.value
        channel.finish(.success(()))
        #expect(try await Self.nextIndex(channel) == 2)
        #expect(try await Self.nextIndex(channel) == nil)
    }

    @Test("Progress is merged per image, labelled, and dropped once the image's result is in")
    func progress() async throws {
        let channel = BatchChannel(inputs: Self.inputs(2), order: .completion, capacity: 4)
        channel.report(index: 0, percent: 10)
        channel.report(index: 1, percent: 50)
        channel.report(index: 0, percent: 30)
        guard case .progress(let first) = try await channel.next() else {
            Issue.record("expected progress first")
            return
        }
        #expect(first.index == 0 && first.percent == 30 && first.input.path == "image-0.png")
        #expect(first.total == 2 && first.completed == 0)
        #expect(abs(first.fractionCompleted - 0.4) < 1e-9)
        await channel.send(Self.result(1))
        channel.report(index: 1, percent: 90)  // late: the engine went on after a time limit
        #expect(try await Self.nextIndex(channel) == 1)
        channel.finish(.success(()))
        #expect(try await Self.nextIndex(channel) == nil)
    }

    @Test("Cancelling lets a waiting worker go, cancels the batch's task and throws once")
    func cancel() async throws {
        let channel = BatchChannel(inputs: Self.inputs(3), order: .input, capacity: 1)
        await channel.send(Self.result(2))
        let waiting = Task { await channel.send(Self.result(1)) }
        let batchTask = Task { while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) } }
        channel.attach(batchTask)
        channel.cancel()
        await waiting.value
        await batchTask.value
        await #expect(throws: SnapPoemError.cancelled(path: "batch of 3 images")) { try await channel.next() }
        #expect(try await Self.nextIndex(channel) == nil)
    }

    @Test("A consumer waiting for a result is woken by cancellation of its task")
    func consumerCancelled() async throws {
        let channel = BatchChannel(inputs: Self.inputs(1), order: .completion, capacity: 1)
        let consumer = Task { () async -> SnapPoemError? in
            do throws(SnapPoemError) {
                _ = try await channel.next()
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        #expect(await consumer.value == .cancelled(path: "batch of 1 image"))
    }
}
