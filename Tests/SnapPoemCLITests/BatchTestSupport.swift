import Foundation
import SnapPoemTestSupport

/// Folders of small real images for the batch tests, and ways to look at what a batch left.
enum BatchFixtures {
    /// A small upright photo of a short text (803×295): quick to recognise.
    static let small = Fixtures.sample("orientation/orientation-1.jpg")
    /// A small clean stanza (1004×428).
    static let stanza = Fixtures.sample("formats/stanza-gray.png")

    /// A temporary folder holding `files`: each name (may contain `/`) gets a copy of the
    /// sample at the given path, or an empty file for `""`.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        for (name, source) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if source.isEmpty {
                _ = FileManager.default.createFile(atPath: url.path, contents: Data())
            } else {
                try FileManager.default.copyItem(atPath: source, toPath: url.path)
            }
        }
        return folder
    }

    /// The manifest's lines as JSON objects, by input.
    static func manifest(_ folder: URL, name: String = "manifest.jsonl") throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        var entries: [String: [String: Any]] = [:]
        for line in data.split(separator: 0x0A) {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
            entries[object["input"] as? String ?? ""] = object
        }
        return entries
    }

    /// The raw lines of a manifest.
    static func manifestLines(_ folder: URL, name: String = "manifest.jsonl") throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Every file below `folder`, relative, sorted (hidden ones included).
    static func files(_ folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    static func remove(_ urls: URL...) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}

/// Runs the built executable and interrupts it with SIGINT once `ready` says so, as Ctrl-C
/// would; returns what it wrote and its exit status.
enum InterruptedRun {
    static func run(_ arguments: [String], when ready: @escaping @Sendable () -> Bool) async throws -> BinaryRun {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "snap-poem-tests.interrupted-run").async {
                do {
                    let process = Process()
                    process.executableURL = BinaryRun.executable
                    process.arguments = arguments
                    // The interrupter waits on a thread of its own while both pipes are drained:
                    // a Thread, not a global queue, which a loaded test run can leave unserved
                    // until the batch has finished.
                    let result = try PipedProcess.run(process, input: nil) {
                        let interrupter = Thread {
                            let deadline = Date().addingTimeInterval(120)
                            while !ready(), process.isRunning, Date() < deadline { usleep(5_000) }
                            if process.isRunning { kill(process.processIdentifier, SIGINT) }
                        }
                        interrupter.start()
                        return nil
                    }
                    continuation.resume(
                        returning: BinaryRun(
                            status: result.status, output: String(decoding: result.output, as: UTF8.self),
                            error: String(decoding: result.error, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// A progressive JPEG that is valid from its header on but takes tens of seconds to decode:
/// a blank 4096×4096 image whose AC refinement scan is repeated thousands of times, each
/// repetition costing a pass over all 262 144 blocks (the "thousands of scans" bomb).
enum JPEGBomb {
    static func make(side: Int = 4096, scans: Int) -> Data {
        var data = Data([0xFF, 0xD8])
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            data += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]
            data += body
        }
        segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        segment(0xC2, [8, UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), 1, 1, 0x11, 0])
        // DC table 0: the code "0" for category 0. AC table 0: "0" for EOB14 (0xE0), "10" for EOB.
        segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        segment(0xC4, [0x10, 1, 1] + [UInt8](repeating: 0, count: 14) + [0xE0, 0x00])
        let blocks = (side / 8) * (side / 8)
        func scan(start: UInt8, end: UInt8, approximation: UInt8, entropy: [UInt8]) {
            segment(0xDA, [1, 1, 0x00, start, end, approximation])
            data += entropy
        }
        var dc = BitWriter()
        for _ in 0..<blocks { dc.write(0, count: 1) }
        scan(start: 0, end: 0, approximation: 0x00, entropy: dc.finish())
        // End-of-band runs of 32 767 blocks (EOB14 and 14 extra bits), enough for every block.
        var runs = BitWriter()
        for _ in 0..<((blocks + 32766) / 32767) {
            runs.write(0, count: 1)
            runs.write(0x3FFF, count: 14)
        }
        let entropy = runs.finish()
        scan(start: 1, end: 63, approximation: 0x01, entropy: entropy)
        for _ in 0..<scans { scan(start: 1, end: 63, approximation: 0x10, entropy: entropy) }
        data += [0xFF, 0xD9]
        return data
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var filled = 0

        mutating func write(_ value: UInt32, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) {
                current = (current << 1) | ((value >> UInt32(shift)) & 1)
                filled += 1
                if filled == 8 {
                    let byte = UInt8(current & 0xFF)
                    bytes.append(byte)
                    if byte == 0xFF { bytes.append(0x00) }  // byte stuffing
                    current = 0
                    filled = 0
                }
            }
        }

        mutating func finish() -> [UInt8] {
            while filled != 0 { write(1, count: 1) }
            return bytes
        }
    }
}
