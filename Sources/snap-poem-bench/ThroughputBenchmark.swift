// snap-poem-bench throughput: a folder of images through `snap-poem DIR --output-dir OUT
// --jobs 2` against `xargs -P 2 tesseract … -l eng+fra` (OMP_THREAD_LIMIT=1), side by side,
// and a rerun that has nothing left to do.
//
//   snap-poem-bench throughput [--runs N] [--against OTHER-SNAP-POEM] IMAGE...
//
// With --against, another build of snap-poem (say, main's, before a change) runs the same
// batch in the same alternating loop, so that the two builds are compared side by side
// under the same load.
//
// The images are copied into one temporary folder under unique names. Each run times both
// commands, alternating which goes first, and measures their wall-clock time, the CPU time
// of every process they started (getrusage of waited-for children) and their peak memory:
// the largest sum of the resident sizes of the command and all its descendants (sampled
// from /proc every 20 ms), since both run two processes at once. Then the snap-poem
// command runs again on its full output folder N times: everything is skipped.
import Foundation
import SnapPoem
import Synchronization

/// What one command cost.
struct CommandCost {
    var wall: Double
    var cpu: Double
    var peakMegabytes: Double
    var status: Int32
}

/// Runs a command, sampling the resident memory of its whole process tree.
func measure(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> CommandCost {
    var before = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &before)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let peak = Mutex(0.0)
    let done = Atomic(false)
    let start = ContinuousClock.now
    try process.run()
    let root = process.processIdentifier
    let sampler = Thread {
        while !done.load(ordering: .relaxed) {
            let megabytes = treeResidentMegabytes(root: root)
            peak.withLock { $0 = max($0, megabytes) }
            usleep(20_000)
        }
    }
    sampler.start()
    process.waitUntilExit()
    let wall = milliseconds(ContinuousClock.now - start) / 1000
    done.store(true, ordering: .relaxed)
    var after = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &after)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    let cpu = seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime)
    return CommandCost(wall: wall, cpu: cpu, peakMegabytes: peak.withLock { $0 }, status: process.terminationStatus)
}

/// The resident memory of `root` and all its descendants, from /proc.
func treeResidentMegabytes(root: Int32) -> Double {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    var parent: [Int32: Int32] = [:]
    var resident: [Int32: Double] = [:]
    let pageMegabytes = Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    for entry in entries {
        guard let pid = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }
        // Fields after the command name: state, ppid, …; rss is field 24 overall.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 22, let ppid = Int32(fields[1]), let pages = Double(fields[21]) else { continue }
        parent[pid] = ppid
        resident[pid] = pages * pageMegabytes
    }
    var total = 0.0
    for (pid, megabytes) in resident {
        var current = pid
        var steps = 0
        while current != root, let up = parent[current], up > 1, steps < 64 {
            current = up
            steps += 1
        }
        if current == root { total += megabytes }
    }
    return total
}

func throughput(images: [String], runs: Int, against other: String? = nil) throws {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let snapPoem = bin.appendingPathComponent("snap-poem").path
    let tessdata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tessdata").path
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("snap-poem-throughput-\(UUID().uuidString)")
    let folder = work.appendingPathComponent("images")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    var bytes = 0
    for path in images {
        // a/b.png → a-b-png.png: unique, and no two outputs collide.
        let name = path.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: ".", with: "-")
        let destination = folder.appendingPathComponent(name + "." + (path as NSString).pathExtension)
        try FileManager.default.copyItem(atPath: path, toPath: destination.path)
        bytes += (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    let script =
        "ls \"$1\"/* | xargs -P 2 -I{} sh -c 'tesseract \"$1\" \"$2/$(basename \"$1\")\" -l eng+fra --tessdata-dir \"$3\" 2>/dev/null' _ {} \"$2\" \"$3\""
    var ours: [CommandCost] = [], theirs: [CommandCost] = [], others: [CommandCost] = []
    var lastOutput = ""
    for run in 0..<runs {
        let output = work.appendingPathComponent("snap-poem-\(run)").path
        let otherOutput = work.appendingPathComponent("other-\(run)").path
        let tesseractOutput = work.appendingPathComponent("tesseract-\(run)").path
        try FileManager.default.createDirectory(atPath: tesseractOutput, withIntermediateDirectories: true)
        var commands: [() throws -> Void] = [
            { ours.append(try measure(snapPoem, [folder.path, "--output-dir", output, "--jobs", "2", "-q"], environment: environment)) },
            {
                theirs.append(
                    try measure("/bin/sh", ["-c", script, "sh", folder.path, tesseractOutput, tessdata], environment: environment))
            },
        ]
        if let other {
            commands.append {
                others.append(
                    try measure(other, [folder.path, "--output-dir", otherOutput, "--jobs", "2", "-q"], environment: environment))
            }
        }
        // Each command goes first in turn.
        for offset in 0..<commands.count { try commands[(run + offset) % commands.count]() }
        lastOutput = output
    }
    // Before the reruns, which leave `skipped` lines without timings.
    let stages = stageTotals(folder: lastOutput)
    var reruns: [CommandCost] = []
    for _ in 0..<max(runs, 3) {
        reruns.append(try measure(snapPoem, [folder.path, "--output-dir", lastOutput, "--jobs", "2", "-q"], environment: environment))
    }
    let failed = (ours + reruns).filter { $0.status != 0 && $0.status != 1 }
    if let failure = failed.first { throw SnapPoemBenchError.commandFailed("snap-poem exited \(failure.status)") }

    func row(_ name: String, _ costs: [CommandCost]) -> String {
        let wall = median(costs.map(\.wall)), cpu = median(costs.map(\.cpu)), peak = costs.map(\.peakMegabytes).max() ?? 0
        return "| \(name) | \(String(format: "%.2f", wall)) | \(String(format: "%.1f", cpu)) | \(String(format: "%.0f", peak)) |"
    }
    print("\(images.count) images, \(bytes / 1_048_576) MB, \(runs) runs of each, alternating which goes first.")
    print("")
    print("| command | median wall s | median CPU s (all processes) | peak memory MB (all processes) |")
    print("| --- | ---: | ---: | ---: |")
    print(row("`snap-poem DIR --output-dir OUT --jobs 2`", ours))
    print(row("`xargs -P 2 tesseract IMAGE OUT -l eng+fra`", theirs))
    print(row("`snap-poem DIR --output-dir OUT --jobs 2` again (all skipped)", reruns))
    print("")
    let speedup = median(theirs.map(\.wall)) / median(ours.map(\.wall))
    let cpuSpeedup = median(theirs.map(\.cpu)) / median(ours.map(\.cpu))
    let rerun = median(ours.map(\.wall)) / median(reruns.map(\.wall))
    print(
        "- snap-poem against xargs + tesseract: **\(String(format: "%.2f", speedup))×** faster (wall clock), \(String(format: "%.2f", cpuSpeedup))× less CPU."
    )
    let pairs = zip(theirs, ours).map { String(format: "%.2f", $0.wall / $1.wall) }.joined(separator: ", ")
    print("- Ratio of each run: \(pairs).")
    print("- A rerun that skips everything: **\(String(format: "%.0f", rerun))×** faster than the first run.")
    if let other, !others.isEmpty {
        let wallRatio = median(others.map(\.wall)) / median(ours.map(\.wall))
        let cpuRatio = median(others.map(\.cpu)) / median(ours.map(\.cpu))
        let pairs = zip(others, ours).map { String(format: "%.2f", $0.wall / $1.wall) }.joined(separator: ", ")
        print(
            "- This build against \(other): **\(String(format: "%.2f", wallRatio))×** the speed (wall clock; above 1 is faster), "
                + "\(String(format: "%.2f", cpuRatio))× less CPU; each run: \(pairs); the other build's median "
                + "\(String(format: "%.2f", median(others.map(\.wall)))) s, peak \(String(format: "%.0f", others.map(\.peakMegabytes).max() ?? 0)) MB."
        )
    }
    if let stages {
        print("")
        print(stages)
    }
}

/// Where the workers' time went, summed over the images of one run, from its manifest.
func stageTotals(folder path: String) -> String? {
    guard let folder = try? OutputFolder(creatingAt: path),
        let contents = try? BatchManifest.read(BatchManifest.wholeBatchFileName, in: folder)
    else { return nil }
    let entries = contents.compacted.compactMap(\.timings)
    let total = Double(entries.map(\.totalMs).reduce(0, +))
    guard total > 0 else { return nil }
    func share(_ name: String, _ milliseconds: [Int]) -> String {
        let sum = Double(milliseconds.reduce(0, +))
        return "\(name) \(String(format: "%.1f", sum / 1000)) s (\(String(format: "%.0f", 100 * sum / total)) %)"
    }
    let parts: [String] = [
        share("reading and decoding", entries.map(\.decodeMs)),
        share("preprocessing (orientation detection included)", entries.map(\.preprocessMs)),
        share("recognition (second readings of turned pages included)", entries.map(\.recognizeMs)),
        share("the coverage check", entries.map(\.coverageCheckMs)),
        share("personalisation", entries.map(\.personalizeMs)),
    ]
    let head =
        "Worker time by stage over \(entries.count) images (from the last run's manifest, \(String(format: "%.1f", total / 1000)) s in all): "
    return head + parts.joined(separator: ", ") + "; the rest is rendering and the protocol."
}

enum SnapPoemBenchError: Error {
    case commandFailed(String)
}
