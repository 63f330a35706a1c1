// snap-poem-bench: the measurements behind BENCHMARKS.md.
//
//   snap-poem-bench stages [--runs N] IMAGE...   time per stage with one reused engine
//   snap-poem-bench versus [--runs N] IMAGE...   snap-poem vs tesseract CLI, interleaved
//   snap-poem-bench engine [--runs N] IMAGE...   engine start; reused vs fresh engine per image
//   snap-poem-bench timeout [--runs N] IMAGE...  how far past the time limit recognition returns
//   snap-poem-bench memory [--runs N] IMAGE...   resident memory over N scans with one scanner
//   snap-poem-bench entry-points [--runs N] IMAGE BATCH-IMAGE...  URL/Data/batch sequences vs the calls they wrap
//   snap-poem-bench throughput [--runs N] [--against SNAP_POEM] IMAGE...
//                                                    a batch vs xargs -P 2 tesseract; a rerun;
//                                                    with --against, vs another snap-poem build too
//   snap-poem-bench coverage [--runs N] [--no-deskew] [IMAGE...]  the coverage check's cost and findings
//   snap-poem-bench scaling [--runs N] [IMAGE...]   small print read as it is vs enlarged to 24 px
//   snap-poem-bench annotate [--runs N] [IMAGE...]  drawing, PNG and side-by-side page vs the scan
//   snap-poem-bench hardening [--runs N]         replacement scaling, GIF header refusal, memory checks
//
// Each figure is the median of N runs; the comparison alternates the two commands run by run
// so that machine noise hits both alike, and reports their ratio.
import Foundation
import SnapPoem

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func milliseconds(_ duration: Duration) -> Double {
    duration.inSeconds * 1000
}

func format(_ value: Double) -> String { String(format: "%.0f", value) }

func timeCommand(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (Double, Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    return (milliseconds(ContinuousClock.now - start), process.terminationStatus)
}

/// How long starting an engine (loading eng+fra) takes, `runs` times, in milliseconds.
func engineStartTimes(runs: Int) async throws -> [Double] {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        _ = try await Recognizer()
        times.append(milliseconds(clock.now - start))
    }
    return times
}

func stages(images: [String], runs: Int) async throws {
    let clock = ContinuousClock()
    let inits = try await engineStartTimes(runs: runs)
    let recognizer = try await Recognizer()
    print("| image | size | decode ms | preprocess ms | recognise ms | total ms (engine reused) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for path in images {
        var decode: [Double] = [], preprocess: [Double] = [], recognize: [Double] = []
        var size = ""
        for _ in 0..<runs {
            var start = clock.now
            let (image, _) = try ImageDecoder.decode(fileAt: path)
            decode.append(milliseconds(clock.now - start))
            size = "\(image.width)×\(image.height)"
            start = clock.now
            let prepared = try ImagePreprocessor.prepare(image, options: PreprocessingOptions())
            preprocess.append(milliseconds(clock.now - start))
            start = clock.now
            _ = try await recognizer.recognize(prepared)
            recognize.append(milliseconds(clock.now - start))
        }
        let total = median(decode) + median(preprocess) + median(recognize)
        print(
            "| \((path as NSString).lastPathComponent) | \(size) | \(format(median(decode))) | \(format(median(preprocess))) | \(format(median(recognize))) | \(format(total)) |"
        )
    }
    print("")
    print("Engine start (eng+fra, models loaded): median \(format(median(inits))) ms over \(runs) runs.")
}

func versus(images: [String], runs: Int) throws {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("snap-poem").path
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    let tessdata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tessdata").path
    print("| image | snap-poem ms | tesseract CLI ms | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for path in images {
        var ours: [Double] = [], theirs: [Double] = []
        for _ in 0..<runs {
            let (a, statusA) = try timeCommand(executable, [path], environment: environment)
            let (b, statusB) = try timeCommand(
                "/usr/bin/tesseract", [path, "-", "-l", "eng+fra", "--tessdata-dir", tessdata], environment: environment)
            guard statusA == 0, statusB == 0 else {
                throw SnapPoemError.recognitionFailed(path: path, reason: "exit \(statusA) / \(statusB) while benchmarking")
            }
            ours.append(a)
            theirs.append(b)
        }
        let ratio = median(ours) / median(theirs)
        print(
            "| \((path as NSString).lastPathComponent) | \(format(median(ours))) | \(format(median(theirs))) | \(String(format: "%.2f", ratio)) |"
        )
    }
}

/// Engine start-up, and one image recognised by a reused engine vs by a fresh one each time.
func engine(images: [String], runs: Int) async throws {
    let clock = ContinuousClock()
    let inits = try await engineStartTimes(runs: runs)
    print("Engine start (eng+fra): median \(format(median(inits))) ms, min \(format(inits.min() ?? 0)) ms over \(runs) runs.")
    print("")
    print("| image | reused engine ms | fresh engine ms | saved per image |")
    print("| --- | ---: | ---: | ---: |")
    let reused = try await Recognizer()
    for path in images {
        let (image, _) = try ImageDecoder.decode(fileAt: path)
        let prepared = try ImagePreprocessor.prepare(image, options: PreprocessingOptions())
        var warm: [Double] = [], cold: [Double] = []
        for _ in 0..<runs {
            var start = clock.now
            _ = try await reused.recognize(prepared)
            warm.append(milliseconds(clock.now - start))
            start = clock.now
            _ = try await Recognizer().recognize(prepared)
            cold.append(milliseconds(clock.now - start))
        }
        print(
            "| \((path as NSString).lastPathComponent) | \(format(median(warm))) | \(format(median(cold))) | \(format(median(cold) - median(warm))) ms |"
        )
    }
}

/// How far past its time limit `Recognizer.recognize` returns.
func timeLimit(images: [String], runs: Int) async throws {
    let clock = ContinuousClock()
    let recognizer = try await Recognizer()
    print("| image (as recognised) | limit ms | median return ms | worst overrun ms | timed out |")
    print("| --- | ---: | ---: | ---: | --- |")
    for path in images {
        let (image, _) = try ImageDecoder.decode(fileAt: path)
        let prepared = try ImagePreprocessor.prepare(image, options: PreprocessingOptions(scaling: .original))
        for limit in [50, 500, 1000] {
            var returns: [Double] = []
            var timedOut = 0
            for _ in 0..<runs {
                let start = clock.now
                let page = try await recognizer.recognize(prepared, options: RecognitionOptions(timeLimit: .milliseconds(limit)))
                returns.append(milliseconds(clock.now - start))
                if page.timedOut { timedOut += 1 }
                // Let the engine finish any layout step it was abandoned in before the next run.
                _ = try await recognizer.recognize(ImagePreprocessor.scaled(prepared, mode: .maxDimension(64)))
            }
            let overrun = (returns.max() ?? 0) - Double(limit)
            print(
                "| \((path as NSString).lastPathComponent) (\(prepared.width)×\(prepared.height)) | \(limit) | \(format(median(returns))) | \(format(overrun)) | \(timedOut)/\(runs) |"
            )
        }
    }
}

/// Resident memory while one scanner reads `count` images in turn.
func memory(images: [String], count: Int) async throws {
    func residentMegabytes() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kilobytes / 1024
    }
    let scanner = try await PoemScanner()
    var marks: [(Int, Double)] = [(0, residentMegabytes())]
    for index in 1...count {
        _ = try await scanner.scan(fileAt: images[(index - 1) % images.count])
        if [1, 10, 50, 100, 200, 300].contains(index) || index == count { marks.append((index, residentMegabytes())) }
    }
    print("| images read | resident MB |")
    print("| ---: | ---: |")
    for (index, megabytes) in marks { print("| \(index) | \(String(format: "%.1f", megabytes)) |") }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    FileHandle.standardError.write(
        Data(
            "usage: snap-poem-bench stages|versus|engine|timeout|memory|quality|entry-points|throughput|coverage|scaling [--runs N] IMAGE...\n"
                .utf8))
    exit(64)
}
arguments.removeFirst()
var runs = 5
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
    runs = value
    arguments.removeSubrange(index...(index + 1))
}
do {
    switch mode {
    case "stages": try await stages(images: arguments, runs: runs)
    case "versus": try versus(images: arguments, runs: runs)
    case "engine": try await engine(images: arguments, runs: runs)
    case "timeout": try await timeLimit(images: arguments, runs: runs)
    case "memory": try await memory(images: arguments, count: runs)
    case "quality": try await quality(arguments: arguments)
    case "entry-points": try await entryPoints(arguments: arguments, runs: runs)
    case "throughput":
        var against: String?
        if let index = arguments.firstIndex(of: "--against"), index + 1 < arguments.count {
            against = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        try throughput(images: arguments, runs: runs, against: against)
    case "coverage":
        try await coverage(images: arguments.filter { $0 != "--no-deskew" }, runs: runs, deskews: !arguments.contains("--no-deskew"))
    case "scaling": try await scaling(images: arguments, runs: runs)
    case "annotate": try await annotation(images: arguments, runs: runs)
    case "hardening": try await hardening(runs: runs)
    default:
        FileHandle.standardError.write(Data("snap-poem-bench: unknown mode '\(mode)'\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("snap-poem-bench: error: \(error)\n".utf8))
    exit(1)
}
