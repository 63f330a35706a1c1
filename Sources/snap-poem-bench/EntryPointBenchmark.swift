// snap-poem-bench entry-points: what the library's convenience entry points cost against the
// calls they wrap, side by side in one run.
//
//   snap-poem-bench entry-points [--runs N] IMAGE BATCH-IMAGE...
//
// 1. One image through one reused scanner: `scan(fileAt: String)` against
//    `scan(fileAt: URL)` and `scan(imageData:)` (the bytes read beforehand, as a server has
//    them), interleaved run by run.
// 2. A batch of the BATCH-IMAGEs with two workers: the callback `scan(_:onResult:)` against
//    the `AsyncSequence` `results(for:order:)` in completion and in input order, interleaved.
// Medians of N runs, and each one's ratio to the first column.
import Foundation
import SnapPoem

func entryPoints(arguments: [String], runs: Int) async throws {
    guard let image = arguments.first, arguments.count >= 2 else {
        throw SnapPoemError.invalidOption(option: "entry-points", reason: "needs IMAGE BATCH-IMAGE...")
    }
    let clock = ContinuousClock()
    func time(_ work: () async throws -> Void) async rethrows -> Double {
        let start = clock.now
        try await work()
        return milliseconds(clock.now - start)
    }
    func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f", value / base) }

    let scanner = try await PoemScanner()
    let url = URL(fileURLWithPath: image)
    let bytes = try Data(contentsOf: url)
    _ = try await scanner.scan(fileAt: image)  // warm-up: caches, first-use set-up
    var path: [Double] = [], fileURL: [Double] = [], data: [Double] = []
    for _ in 0..<runs {
        path.append(try await time { _ = try await scanner.scan(fileAt: image) })
        fileURL.append(try await time { _ = try await scanner.scan(fileAt: url) })
        data.append(try await time { _ = try await scanner.scan(imageData: bytes, name: image) })
    }
    let base = median(path)
    print("| one image, reused scanner | path ms | URL ms | Data ms | URL ratio | Data ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(
        "| \((image as NSString).lastPathComponent) | \(format(base)) | \(format(median(fileURL))) | \(format(median(data))) | \(ratio(median(fileURL), base)) | \(ratio(median(data), base)) |"
    )
    print("")

    let inputs = arguments.dropFirst().map { BatchInput(path: $0) }
    let batch = BatchScanner(workers: 2)
    var callback: [Double] = [], completion: [Double] = [], inputOrder: [Double] = []
    for _ in 0..<runs {
        callback.append(try await time { try await batch.scan(inputs) { _ in } })
        completion.append(try await time { for try await _ in batch.results(for: inputs) {} })
        inputOrder.append(try await time { for try await _ in batch.results(for: inputs, order: .input) {} })
    }
    let batchBase = median(callback)
    print("| batch, 2 workers | callback ms | results ms (completion) | results ms (input order) | completion ratio | input-order ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(
        "| \(inputs.count) images | \(format(batchBase)) | \(format(median(completion))) | \(format(median(inputOrder))) | \(ratio(median(completion), batchBase)) | \(ratio(median(inputOrder), batchBase)) |"
    )
}
