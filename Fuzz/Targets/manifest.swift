// fuzz-modules: SnapPoem
//
// What a batch reads back from disk or from its workers. The first byte chooses:
//   even: the rest is a manifest file (`manifest.jsonl`, possibly torn or hand-edited):
//         parsed, compacted, every entry written back as a line and parsed again (the
//         entries must survive), and each one put to the resume decision;
//   odd:  the rest is one line from a worker process (`WorkerMessage`), decoded as the
//         supervisor decodes it.
import Foundation

@testable import SnapPoem

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = Data(bytes: bytes + 1, count: size - 1)
    if bytes[0] & 1 == 1 {
        _ = WorkerLine.decode(WorkerMessage.self, from: rest)
        return 0
    }
    let contents = BatchManifest.parse(rest)
    let compacted = contents.compacted
    precondition(compacted.count == contents.latest.count, "compaction keeps one entry per input")
    var written = Data()
    for entry in compacted { written.append(entry.line) }
    let again = BatchManifest.parse(written)
    precondition(again.unreadableLines == 0, "an entry written back could not be read")
    precondition(again.entries == compacted, "an entry changed when written and read back")
    for entry in compacted {
        for force in [false, true] {
            _ = ResumeDecision.decide(
                previous: entry, contentHash: { entry.contentHash }, optionsHash: entry.optionsHash,
                output: entry.output ?? "out.txt", outputHash: { entry.outputHash },
                policy: ResumeDecision.Policy(force: force, retryFailed: !force))
        }
    }
    return 0
}
