import Foundation
import SnapPoemTestSupport
import Testing

/// Runs the built `snap-poem` executable as a user would.
struct BinaryRun {
    let status: Int32
    let output: String
    let error: String

    /// The executable under test (`TestedExecutable`: the development build, or the shipped one).
    static var executable: URL { TestedExecutable.url }

    /// Runs the executable on a thread of its own and waits without blocking Swift's
    /// cooperative threads: a test that blocked them would delay every other test's
    /// continuations, and with them the time-limit and cancellation tests' measurements.
    ///
    /// - Parameter program: what runs instead of snap-poem itself (`/bin/bash`, to pass an
    ///   argument that is not valid UTF-8).
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, program: URL? = nil
    ) async throws -> BinaryRun {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "snap-poem-tests.binary-run").async {
                do {
                    continuation.resume(
                        returning: try runBlocking(arguments, stdin: stdin, environment: environment, program: program))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], stdin: Data?, environment: [String: String]?, program: URL?
    ) throws -> BinaryRun {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let result = try PipedProcess.run(process, input: stdin)
        return BinaryRun(
            status: result.status,
            output: String(decoding: result.output, as: UTF8.self),
            error: String(decoding: result.error, as: UTF8.self))
    }
}

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sample(_ name: String) -> String {
        root.appendingPathComponent("SampleImages").appendingPathComponent(name).path
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snap-poem-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite("The snap-poem executable, run as a user would")
struct EndToEndTests {
    @Test("snap-poem Lenore.png --replace Lenore=Alex prints the personalised poem")
    func personalisedLenore() async throws {
        let result = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "--replace", "Lenore=Alex"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "stderr must be quiet: \(result.error)")
        #expect(!result.output.contains("Lenore"))
        #expect(result.output.components(separatedBy: "Alex").count - 1 == 3)
        #expect(result.output.hasPrefix("Alex\n"))
    }

    @Test("Bad inputs: non-zero exit and one line naming the file; the batch goes on")
    func badInputs() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.png").path
        let empty = folder.appendingPathComponent("empty.png").path
        let text = folder.appendingPathComponent("text.png").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = FileManager.default.createFile(atPath: text, contents: Data("Lenore\n".utf8))
        for path in [missing, empty, text] {
            let result = try await BinaryRun.run([path])
            #expect(result.status == 1, "\(path): \(result.status)")
            #expect(result.output.isEmpty)
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(result.error)")
            #expect(result.error.hasPrefix("snap-poem: error: \(path): "))
        }
        let batch = try await BinaryRun.run([missing, Fixtures.sample("Lenore.png"), empty])
        #expect(batch.status == 1)
        #expect(batch.output.contains("Lenore"))
        #expect(
            batch.error.split(separator: "\n") == [
                "snap-poem: error: \(missing): no such file",
                "snap-poem: error: \(empty): the file is empty (0 bytes), not an image",
                "snap-poem: 3 images: 1 written, 0 skipped (done before), 2 failed, 0 cancelled",
            ])
    }

    @Test("An unknown option exits 64 with a usage message")
    func unknownOption() async throws {
        let result = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "--frobnicate"])
        #expect(result.status == 64)
        #expect(result.error.contains("Unknown option '--frobnicate'"))
        #expect(result.output.isEmpty)
    }

    @Test("An image on standard input with '-'")
    func standardInput() async throws {
        let image = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("Lenore.png")))
        let result = try await BinaryRun.run(["-", "--replace", "Lenore=Alex"], stdin: image)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Alex\n"))
    }

    @Test("A missing language lists what is available, exit 69")
    func missingLanguage() async throws {
        let result = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "--lang", "eng+deu"])
        #expect(result.status == 69)
        #expect(result.error.contains("language 'deu' not found in tessdata at "))
        #expect(result.error.contains("available: eng, fra, osd"))
    }

    @Test("--output writes the file atomically and never over an existing one without --force")
    func outputFile() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poem.txt").path
        let first = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "-r", "Lenore=Alex", "-o", output])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.isEmpty)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("Alex\n"))
        let second = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "-o", output])
        #expect(second.status == 73)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == written)
        let forced = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "-o", output, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("Lenore\n"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["poem.txt"])
    }
}
