import Foundation
import SnapPoem

/// `--check-manifests`: whether the manifests in `--output-dir` (one per shard, or the whole
/// batch's) together cover every input of the folders given exactly once, done, with the
/// output in place and the input unchanged. Reads no image; prints one line per problem and
/// a count on standard output; exit 0 when the batch is complete, 1 when not.
///
/// ```
/// missing: poems/c.png
/// duplicated: poems/a.png (manifest.shard-1-of-2.jsonl, manifest.shard-2-of-3.jsonl)
/// failed: poems/b.png: worker crashed: signal 4 (SIGILL, illegal instruction)
/// look at: poems/d.png: 1 region of text could not be read (97 % of the text is covered)
/// snap-poem: 29 images, 2 manifests: 26 covered once, 1 missing, 1 duplicated, 1 failed; 1 to look at
/// ```
///
/// A page whose coverage check left text unread is done (it is counted as covered), but it
/// is listed as one to look at, so that a person can compare it with the image.
struct ManifestCheck {
    let options: CommandOptions
    let console: Console
    let collection: InputCollection

    func run() -> ExitCode {
        var problems = 0
        for problem in collection.problems {
            console.writeError("snap-poem: error: \(problem.description)\n")
            problems += 1
        }
        guard let folder = options.outputDirectory else { return .usage }
        let files = BatchManifest.files(inFolder: folder)
        guard !files.isEmpty else {
            console.writeError("snap-poem: error: \(folder): no manifest here (manifest.jsonl or manifest.shard-K-of-N.jsonl)\n")
            return .inputFailed
        }
        var entries: [String: [(file: String, entry: ManifestEntry)]] = [:]
        var unreadable = 0
        for file in files {
            let contents = BatchManifest.read(fileAt: URL(fileURLWithPath: folder).appendingPathComponent(file).path)
            unreadable += contents.unreadableLines
            for entry in contents.compacted where entry.status != .cancelled {
                entries[entry.input, default: []].append((file, entry))
            }
        }
        var counts = (covered: 0, missing: 0, duplicated: 0, failed: 0, changed: 0, toLookAt: 0)
        var lines: [String] = []
        for input in collection.inputs {
            let found = entries.removeValue(forKey: input.relativePath) ?? []
            guard let latest = found.max(by: { $0.entry.finishedAt < $1.entry.finishedAt })?.entry else {
                lines.append("missing: \(input.path)")
                counts.missing += 1
                continue
            }
            if Set(found.map(\.file)).count > 1 {
                lines.append("duplicated: \(input.path) (\(found.map(\.file).joined(separator: ", ")))")
                counts.duplicated += 1
                continue
            }
            guard latest.status.isDone else {
                lines.append("failed: \(input.path): \(Self.reason(latest))")
                counts.failed += 1
                continue
            }
            if let output = latest.output,
                !FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent(output).path)
            {
                lines.append("output missing: \(input.path) → \(output)")
                counts.missing += 1
                continue
            }
            if let recorded = latest.contentHash, let current = (try? input.readContents()).map(ContentHash.of), current != recorded {
                lines.append("changed since it was read: \(input.path)")
                counts.changed += 1
                continue
            }
            counts.covered += 1
            if let coverage = latest.coverage, !coverage.complete {
                let regions = coverage.unreadRegions
                lines.append(
                    "look at: \(input.path): \(regions) region\(regions == 1 ? "" : "s") of text could not be read "
                        + "(\(CoverageWarning.percent(coverage.coveredAfterReread)) of the text is covered)")
                counts.toLookAt += 1
            }
        }
        let strangers = entries.count
        var summary =
            "snap-poem: \(collection.inputs.count) images, \(files.count) manifest\(files.count == 1 ? "" : "s"): \(counts.covered) covered once, \(counts.missing) missing, \(counts.duplicated) duplicated, \(counts.failed) failed"
        if counts.changed > 0 { summary += ", \(counts.changed) changed since" }
        if counts.toLookAt > 0 { summary += "; \(counts.toLookAt) to look at" }
        if strangers > 0 { summary += "; \(strangers) manifest entries name no input given" }
        if unreadable > 0 { summary += "; \(unreadable) unreadable manifest lines" }
        console.writeOutput(Data((lines + [summary]).map { $0 + "\n" }.joined().utf8))
        let complete = problems == 0 && counts.covered == collection.inputs.count
        return complete ? .success : .inputFailed
    }

    private static func reason(_ entry: ManifestEntry) -> String {
        guard let error = entry.error else { return entry.status.rawValue }
        let prefix = entry.path + ": "
        return error.hasPrefix(prefix) ? String(error.dropFirst(prefix.count)) : error
    }
}
