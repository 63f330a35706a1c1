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
/// The manifests are merged by the rule a rerun uses (`ManifestSet`), read as streams with
/// bounds, and never through a link. Every line is escaped: names and manifest strings come
/// from outside. A page whose coverage check left text unread is done (it is counted as
/// covered), but it is listed as one to look at, so that a person can compare it with the
/// image.
struct ManifestCheck {
    let options: CommandOptions
    let collection: InputCollection
    let diagnostics: DiagnosticsEngine

    func run() -> ExitCode {
        diagnostics.emit(collection.problems.map { Diagnostic($0) })
        guard let path = options.outputDirectory else { return .usage }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        do throws(SnapPoemError) {
            let folder = exists ? try OutputFolder(creatingAt: path) : nil
            let manifests = try folder.map { folder throws(SnapPoemError) in try ManifestSet(reading: folder) }
            guard let folder, let manifests, !manifests.files.isEmpty else {
                diagnostics.emit(
                    Diagnostic(.error, "no manifest here (manifest.jsonl or manifest.shard-K-of-N.jsonl)", subject: path, category: .input))
                return diagnostics.exitCode
            }
            return check(manifests, folder: folder)
        } catch {
            diagnostics.emit(Diagnostic(.error, error.description, category: .input))
            return diagnostics.exitCode
        }
    }

    private func check(_ manifests: ManifestSet, folder: OutputFolder) -> ExitCode {
        var counts = (covered: 0, missing: 0, duplicated: 0, failed: 0, changed: 0, toLookAt: 0)
        var lines: [String] = []
        var named: Set<String> = []
        for input in collection.inputs {
            named.insert(input.relativePath)
            guard let record = manifests.record(for: input.relativePath) else {
                lines.append("missing: \(input.path)")
                counts.missing += 1
                continue
            }
            let latest = record.entry
            if record.files.count > 1 {
                lines.append("duplicated: \(input.path) (\(record.files.joined(separator: ", ")))")
                counts.duplicated += 1
                continue
            }
            guard latest.status.isDone else {
                lines.append("failed: \(input.path): \(Self.reason(latest))")
                counts.failed += 1
                continue
            }
            if let output = latest.output, (try? folder.hasFile(at: output)) != true {
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
                        + "(\(PoemDiagnostics.percent(coverage.coveredAfterReread)) of the text is covered)")
                counts.toLookAt += 1
            }
        }
        let strangers = manifests.inputs.subtracting(named).count
        let files = manifests.files.count
        var summary =
            "snap-poem: \(collection.inputs.count) images, \(files) manifest\(files == 1 ? "" : "s"): \(counts.covered) covered once, \(counts.missing) missing, \(counts.duplicated) duplicated, \(counts.failed) failed"
        if counts.changed > 0 { summary += ", \(counts.changed) changed since" }
        if counts.toLookAt > 0 { summary += "; \(counts.toLookAt) to look at" }
        if strangers > 0 { summary += "; \(strangers) manifest entries name no input given" }
        if manifests.unreadableLines > 0 { summary += "; \(manifests.unreadableLines) unreadable manifest lines" }
        diagnostics.results(lines + [summary])
        let complete = diagnostics.count(of: .error) == 0 && counts.covered == collection.inputs.count
        if !complete { diagnostics.count(.input) }
        return diagnostics.exitCode
    }

    private static func reason(_ entry: ManifestEntry) -> String {
        guard let error = entry.error else { return entry.status.rawValue }
        let prefix = entry.path + ": "
        return error.hasPrefix(prefix) ? String(error.dropFirst(prefix.count)) : error
    }
}
