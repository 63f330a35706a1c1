// fuzz-modules: SnapPoem
//
// What a batch reads back from disk or from its workers. The first byte chooses:
//   even: the rest is a manifest file (`manifest.jsonl`, possibly torn or hand-edited):
//         parsed, compacted, every entry written back as a line and parsed again (the
//         entries must survive), and each one put to the resume decision;
//   odd:  the rest is a stream of lines from a worker process, framed (`LineFramer`, with
//         its bound) and each decoded as the supervisor decodes a `WorkerMessage`.
import Foundation

@testable import SnapPoem

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = Data(bytes: bytes + 1, count: size - 1)
    if bytes[0] & 1 == 1 {
        var framer = LineFramer(maximumLineBytes: 4096)
        rest.withUnsafeBytes { framer.append($0) }
        framer.append([0x0A])
        while let piece = framer.next() {
            if case .line(let line) = piece { _ = WorkerLine.decode(WorkerMessage.self, from: line) }
        }
        precondition(framer.examinedBytes <= rest.count + 1, "a byte was examined twice")
        return 0
    }
    let contents = BatchManifest.parse(rest)
    let compacted = contents.compacted
    precondition(compacted.count == contents.latest.count, "compaction keeps one entry per input")
    var written = Data()
    for entry in compacted { written.append(entry.line) }
    let again = BatchManifest.parse(written)
    precondition(again.unreadableLines == 0, "an entry written back could not be read")
    precondition(again.compacted == compacted, "an entry changed when written and read back")
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
