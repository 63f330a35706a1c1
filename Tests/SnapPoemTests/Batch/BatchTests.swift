import Foundation
import SnapPoem
import Synchronization
import Testing

@Suite("Batches: collecting folders, sharding, parallel workers")
struct BatchTests {
    @Test("A folder becomes its images, sorted, hidden files and non-images skipped; files stay as named")
    func collect() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = ["b.png", "a.JPG", "notes.txt", ".hidden.png", "sub/c.tif", "sub/deeper/d.webp", ".git/e.png"]
        for name in tree {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data([1]))
        }
        let inputs = try BatchInput.collect([folder.path, "/missing/x.png", "-"])
        #expect(inputs.map(\.relativePath) == ["a.JPG", "b.png", "sub/c.tif", "sub/deeper/d.webp", "/missing/x.png", "-"])
        #expect(inputs[0].path == folder.path + "/a.JPG")
    }

    @Test("Shards cover every input exactly once and differ in size by at most one", arguments: [1, 2, 3, 7, 40])
    func shards(count: Int) throws {
        let inputs = Array(0..<23)
        var seen: [Int] = []
        var sizes: [Int] = []
        for index in 1...count {
            let part = try Shard(index: index, count: count).select(inputs)
            seen += part
            sizes.append(part.count)
        }
        #expect(seen.sorted() == inputs)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    }

    @Test("Bad shard specifications are refused", arguments: ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""])
    func badShard(text: String) {
        #expect(throws: SnapPoemError.self) { try Shard(parsing: text) }
    }

    @Test("Two workers read a batch with the same results as one, and a bad input does not stop it")
    func parallelBatch() async throws {
        let names = ["formats/stanza-rgb8.png", "formats/empty.png", "formats/stanza-gray.png", "orientation/orientation-3.jpg"]
        let inputs = names.map { BatchInput(path: Fixtures.sample($0), relativePath: $0) }
        func run(workers: Int) async throws -> [Int: Result<String, SnapPoemError>] {
            let results = Mutex<[Int: Result<String, SnapPoemError>]>([:])
            try await BatchScanner(workers: workers).scan(inputs) { result in
                results.withLock { $0[result.index] = result.outcome.map(\.text) }
            }
            return results.withLock { $0 }
        }
        let one = try await run(workers: 1)
        let two = try await run(workers: 2)
        #expect(one.count == names.count)
        #expect(two.count == names.count)
        for index in names.indices {
            let sequential = try? one[index]?.get(), parallel = try? two[index]?.get()
            #expect(sequential == parallel, "\(names[index])")
        }
        #expect(throws: SnapPoemError.emptyFile(path: Fixtures.sample("formats/empty.png"))) { try two[1]?.get() }
        #expect(try two[0]?.get().contains("golden bowl") == true)
    }
}
