import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// Issue 44, "schedule the batch well": workers side by side take the largest files first.
@Suite("Batch order: the largest files first")
struct BatchOrderTests {
    @Test("Inputs are ordered by file size, largest first; ties, missing files and standard input keep their order")
    func largestFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededGenerator(seed: 44)
        let sizes = (0..<12).map { _ in Int.random(in: 0...4096, using: &random) } + [100, 100]
        var inputs: [BatchInput] = []
        for (number, size) in sizes.enumerated() {
            let url = folder.appendingPathComponent("\(number).png")
            try Data(repeating: 7, count: size).write(to: url)
            inputs.append(BatchInput(path: url.path))
        }
        inputs.append(BatchInput(path: folder.appendingPathComponent("missing.png").path))
        let order = BatchOrder.largestFirst(inputs)
        #expect(order.sorted() == Array(inputs.indices))
        let ordered = order.map { $0 < sizes.count ? sizes[$0] : -1 }
        #expect(ordered == ordered.sorted(by: >), "\(ordered)")
        // Equal sizes keep the input order; the missing file comes last.
        #expect(order.firstIndex(of: 12)! < order.firstIndex(of: 13)!)
        #expect(order.last == inputs.count - 1)
        // Bytes given (standard input) count by their length.
        let given = BatchOrder.largestFirst(inputs, contents: { $0 == inputs.count - 1 ? Data(count: 10_000) : nil })
        #expect(given.first == inputs.count - 1)
    }
}
