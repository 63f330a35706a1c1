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
/// bounds, and never through a link; the library judges (`ManifestAudit`), this prints. Every
/// line is escaped: names and manifest strings come from outside.
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

    /// The audit's findings as lines, then the count, on standard output.
    private func check(_ manifests: ManifestSet, folder: OutputFolder) -> ExitCode {
        let audit = ManifestAudit(inputs: collection.inputs, manifests: manifests, folder: folder)
        let lines = audit.findings.map { finding -> String in
            switch finding {
            case .missing(let input): "missing: \(input.path)"
            case .duplicated(let input, let files): "duplicated: \(input.path) (\(files.joined(separator: ", ")))"
            case .failed(let input, let reason): "failed: \(input.path): \(reason)"
            case .outputMissing(let input, let output): "output missing: \(input.path) → \(output)"
            case .changed(let input): "changed since it was read: \(input.path)"
            case .toLookAt(let input, let coverage):
                "look at: \(input.path): \(coverage.unreadRegions) region\(coverage.unreadRegions == 1 ? "" : "s") of text could not be read "
                    + "(\(PoemDiagnostics.percent(coverage.coveredAfterReread)) of the text is covered)"
            }
        }
        let files = manifests.files.count
        var summary =
            "snap-poem: \(audit.total) image\(audit.total == 1 ? "" : "s"), \(files) manifest\(files == 1 ? "" : "s"): \(audit.covered) covered once, \(audit.missing) missing, \(audit.duplicated) duplicated, \(audit.failed) failed"
        if audit.changed > 0 { summary += ", \(audit.changed) changed since" }
        if audit.toLookAt > 0 { summary += "; \(audit.toLookAt) to look at" }
        if audit.strangers > 0 {
            summary += "; \(audit.strangers) manifest \(audit.strangers == 1 ? "entry names" : "entries name") no input given"
        }
        let unreadable = manifests.unreadableLines
        if unreadable > 0 { summary += "; \(unreadable) unreadable manifest line\(unreadable == 1 ? "" : "s")" }
        diagnostics.results(lines + [summary])
        if diagnostics.count(of: .error) > 0 || !audit.isComplete { diagnostics.count(.input) }
        return diagnostics.exitCode
    }
}
