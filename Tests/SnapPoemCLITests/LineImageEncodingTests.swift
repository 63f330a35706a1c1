import Foundation
import Testing

@testable import SnapPoem

/// The executable stores Tesseract's in-memory line images without deflate
/// (`Sources/CTesseractShim/LineImageEncoding.cpp`), and only those.
@Suite("Line images stored without deflate, and only they")
struct LineImageEncodingTests {
    @Test("Leptonica's calls to pixWriteMemPng land in snap-poem's own definition during a real recognition")
    func interpositionHolds() async throws {
        // The dynamic linker reports each symbol it binds; liblept's call to pixWriteMemPng
        // happens when Tesseract stores its first line image. The report goes to a file
        // (LD_DEBUG_OUTPUT, one per process): on standard error its megabytes would fill the
        // pipe while the test reads standard output.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "bindings"
        environment["LD_DEBUG_OUTPUT"] = folder.appendingPathComponent("bindings").path
        let run = try await BinaryRun.run([Fixtures.sample("Lenore.png")], environment: environment)
        #expect(run.status == 0, "\(run.error.suffix(2000))")
        #expect(run.output.contains("Lenore"))
        let report = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        let bindings = report.split(separator: "\n").filter { $0.contains("`pixWriteMemPng'") }
        #expect(
            bindings.contains { line in
                // "binding file …/liblept.so.5 [0] to …/snap-poem [0]: normal symbol `pixWriteMemPng'"
                let sides = line.components(separatedBy: " to ")
                return sides.count == 2 && sides[0].contains("liblept") && sides[1].hasPrefix(BinaryRun.executable.path + " ")
            },
            "\(bindings.prefix(3).joined(separator: "\n"))")
    }

    @Test("A PNG snap-poem writes itself is still deflated: the switch holds only inside a recognition")
    func ownPNGsStayCompressed() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let annotated = folder.appendingPathComponent("seen.png").path
        let run = try await BinaryRun.run([Fixtures.sample("Lenore.png"), "--annotate", annotated])
        #expect(run.status == 0, "\(run.error)")
        let (image, _) = try ImageDecoder.decode(fileAt: annotated)
        let stored = try #require(try FileManager.default.attributesOfItem(atPath: annotated)[.size] as? Int)
        // Three bytes a pixel uncompressed; deflated, a page of print is a small part of that.
        let raw = image.width * image.height * 3
        #expect(stored * 4 < raw, "\(stored) bytes for \(image.width)×\(image.height)")
    }
}
