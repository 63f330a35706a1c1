import Foundation
import SnapPoemTestSupport
import Testing

/// The codecs under Leptonica print nothing of their own (`CodecMessages.cpp`): a damaged
/// image is one line of snap-poem's, naming the file, and what a codec says about an image
/// that decodes is a warning naming it. libpng's "libpng error: read error in
/// memio_png_read_data", libjpeg's "Premature end of JPEG file" and Leptonica's TIFF
/// stream's "Bad file: amount too big" came first, untagged, past -q. (In a batch, workers
/// pass them on as before, and the supervisor ties them to the file: WorkerIsolationTests.)
@Suite("A damaged image gives one line: the codecs print nothing of their own")
struct CodecMessageTests {
    /// The first two thirds of each sample, in a new folder.
    static func truncatedCopies(_ names: [String]) throws -> (folder: URL, paths: [String]) {
        let folder = try Fixtures.temporaryFolder()
        var paths: [String] = []
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/\(name)")))
            let path = folder.appendingPathComponent(name).path
            try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return (folder, paths)
    }

    @Test(
        "One image cut short: exit 1 and exactly one line, naming the file",
        arguments: ["stanza-rgb8.png", "stanza-palette.png", "stanza-baseline.jpg", "stanza-progressive.jpg", "stanza-rgb.tif"])
    func oneImage(name: String) async throws {
        let (folder, paths) = try Self.truncatedCopies([name])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await BinaryRun.run([paths[0]])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        let lines = Self.withoutLeakReport(run.error, name: name).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(run.error)")
        #expect(run.error.hasPrefix("snap-poem: error: \(paths[0]): the "), "\(run.error)")
        #expect(run.error.contains("data is damaged or truncated"), "\(run.error)")
    }

    /// `error` without the report LeakSanitizer appends at exit under make test-asan, which is
    /// recorded as a known intermittent issue instead: on a loaded CI machine (2026-12-06,
    /// make test-asan-ci) the truncated TIFF's run once ended holding 830,976 bytes in three
    /// C++ allocations, most likely an engine still loading in the background on a path that
    /// does not wait for it (PoemScanner.finishLoading); six runs on a quiet machine held
    /// nothing. Outside AddressSanitizer the text is returned unchanged.
    static func withoutLeakReport(_ error: String, name: String) -> String {
        let rule = String(repeating: "=", count: 65) + "\n"
        guard TestSanitizer.name == "address", let start = error.range(of: rule) else { return error }
        withKnownIssue("LeakSanitizer at exit after a refused image: an engine still loading?", isIntermittent: true) {
            Issue.record("\(name): \(error[start.lowerBound...].prefix(800))")
        }
        var kept = String(error[..<start.lowerBound])
        while kept.hasSuffix("\n") { kept.removeLast() }
        return kept + "\n"
    }

    @Test("A PNG that decodes with a libpng warning: one warning naming the file and the decoder, silenced by -q")
    func warningNamesTheFile() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // stanza-gray.png with a pHYs chunk whose CRC is wrong: libpng skips the chunk, warns,
        // and decodes the image. (A text chunk would not do: snap-poem leaves those out of
        // what libpng sees.)
        var png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("formats/stanza-gray.png")))
        let text = Data("pHYs".utf8) + Data([0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1])
        var chunk = withUnsafeBytes(of: UInt32(text.count - 4).bigEndian) { Data($0) } + text
        chunk += withUnsafeBytes(of: UInt32(0xDEAD_BEEF).bigEndian) { Data($0) }
        png.insert(contentsOf: chunk, at: 33)  // after the signature and IHDR
        let path = folder.appendingPathComponent("commented.png").path
        try png.write(to: URL(fileURLWithPath: path))
        let run = try await BinaryRun.run([path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Lenore"))
        #expect(run.error == "snap-poem: warning: \(path): the PNG decoder said: pHYs: CRC error\n", "\(run.error)")
        let quiet = try await BinaryRun.run([path, "-q"])
        #expect(quiet.status == 0 && quiet.error.isEmpty, "\(quiet.error)")
    }

    @Test(
        "Leptonica's calls to png_create_read_struct and jpeg_std_error land in snap-poem's own definitions",
        arguments: [("stanza-rgb8.png", "png_create_read_struct"), ("stanza-baseline.jpg", "jpeg_std_error")])
    func interpositionHolds(sample: String, symbol: String) async throws {
        // One image is read in the command's own process, whose path the report names.
        let bindings = try await SymbolBindings.record([Fixtures.sample("formats/\(sample)")])
        #expect(bindings.run.status == 0, "\(bindings.run.error.suffix(2000))")
        let bound = bindings.bindsToExecutable(symbol, from: "liblept")
        #expect(bound, "\(bindings.lines(about: symbol).prefix(3).joined(separator: "\n"))")
    }

    @Test("Images that decode are unchanged: the PNG and JPEG samples still read, and PNGs are still written")
    func goodImagesStillWork() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let annotated = folder.appendingPathComponent("seen.png").path
        let run = try await BinaryRun.run([Fixtures.sample("formats/stanza-rgb8.png"), "--annotate", annotated])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty, "\(run.error)")
        #expect(run.output.contains("Lenore"))
        let header = try Data(contentsOf: URL(fileURLWithPath: annotated)).prefix(8)
        #expect(header == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let jpeg = try await BinaryRun.run([Fixtures.sample("formats/stanza-baseline.jpg")])
        #expect(jpeg.status == 0 && jpeg.error.isEmpty, "\(jpeg.error)")
        #expect(jpeg.output.contains("Lenore"))
    }
}
