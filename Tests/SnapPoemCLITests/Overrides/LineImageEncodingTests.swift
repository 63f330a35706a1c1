import Foundation
import Testing

@testable import SnapPoem

/// The executable stores Tesseract's in-memory line images without PNG
/// (`Sources/CProcessOverrides/LineImageEncoding.cpp`; `LineImageStorageTests` checks the bytes),
/// and only those.
@Suite("Line images stored without PNG, and only they")
struct LineImageEncodingTests {
    @Test("Leptonica's calls to pixWriteMemPng land in snap-poem's own definition during a real recognition")
    func interpositionHolds() async throws {
        // liblept's call to pixWriteMemPng happens when Tesseract stores its first line image.
        let bindings = try await SymbolBindings.record([Fixtures.sample("Lenore.png")])
        #expect(bindings.run.status == 0, "\(bindings.run.error.suffix(2000))")
        #expect(bindings.run.output.contains("Lenore"))
        #expect(
            bindings.bindsToExecutable("pixWriteMemPng", from: "liblept"),
            "\(bindings.lines(about: "pixWriteMemPng").prefix(3).joined(separator: "\n"))")
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
