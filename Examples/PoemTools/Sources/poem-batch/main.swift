// poem-batch: reads every image of folders and files with parallel workers, through the
// `AsyncSequence` of `BatchScanner`, and prints one line per image in input order.
//
//   poem-batch [--jobs N] [--progress] FOLDER|IMAGE...
//
// Standard output: `PATH<TAB>ok<TAB>LINES<TAB>FIRST LINE` or `PATH<TAB>failed<TAB>ERROR`.
// Standard error: with --progress, `progress PERCENT PATH IMAGE-PERCENT` lines; then a summary.
// Exit status: 0 when every image was read, 1 when one failed, 64 for a usage error.
import Foundation
import SnapPoem

func writeError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

var workers = 2
var showsProgress = false
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--jobs", "-j":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 1 else {
            writeError("poem-batch: error: --jobs needs a number of workers, 1 or more")
            exit(64)
        }
        workers = value
    case "--progress":
        showsProgress = true
    default:
        paths.append(argument)
    }
}
guard !paths.isEmpty else {
    writeError("usage: poem-batch [--jobs N] [--progress] FOLDER|IMAGE...")
    exit(64)
}

let inputs: [BatchInput]
do throws(SnapPoemError) {
    inputs = try BatchInput.collect(paths)
} catch {
    writeError("poem-batch: error: \(error.description)")
    exit(1)
}

var read = 0
var failed = 0
do throws(SnapPoemError) {
    for try await event in BatchScanner(workers: workers).events(for: inputs, order: .input) {
        switch event {
        case .progress(let progress):
            guard showsProgress else { continue }
            let whole = Int((progress.fractionCompleted * 100).rounded(.down))
            writeError("progress \(whole) \(progress.input.relativePath) \(progress.percent)")
        case .result(let result):
            switch result.outcome {
            case .success(let poem):
                read += 1
                let lines = poem.text.split(separator: "\n")
                print("\(result.input.relativePath)\tok\t\(lines.count)\t\(lines.first ?? "")")
            case .failure(let error):
                failed += 1
                print("\(result.input.relativePath)\tfailed\t\(error.description)")
            }
        }
    }
} catch {
    writeError("poem-batch: error: \(error.description)")
    exit(69)
}
writeError("poem-batch: \(inputs.count) images: \(read) read, \(failed) failed")
exit(failed == 0 ? 0 : 1)
