import Foundation
import Testing

@Suite("Multi-page TIFFs and HEIF on the command line: every page in one output, page errors by number")
struct MultiPageCommandTests {
    static let threePages = Fixtures.sample("formats/poems-3page.tif")

    @Test("One TIFF of three poems: the three in page order on standard output, a form feed line between them")
    func textOutput() async throws {
        let run = try await BinaryRun.run([Self.threePages, "-r", "Tyger=Tiger"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty, "\(run.error)")
        let pages = run.output.components(separatedBy: "\u{0C}\n")
        #expect(pages.count == 3)
        #expect(pages[0].hasPrefix("Lenore\n") && pages[1].hasPrefix("The Tiger\n") && pages[2].hasPrefix("Hope\n"))
        #expect(!run.output.contains("Tyger"))
    }

    @Test("A batch writes one output per file with every page, and the manifest records the page count")
    func batchManifest() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        let results = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.threePages, toPath: inputs.appendingPathComponent("poems.tif").path)
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("formats/stanza.heic"), toPath: inputs.appendingPathComponent("stanza.heic").path)
        let run = try await BinaryRun.run([inputs.path, "--output-dir", results.path, "--format", "json", "--jobs", "1"])
        #expect(run.status == 0, "\(run.error)")
        let written = try FileManager.default.subpathsOfDirectory(atPath: results.path).sorted()
        #expect(written == ["manifest.jsonl", "poems.json", "stanza.json"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: results.appendingPathComponent("poems.json")))
        let document = try #require(json as? [String: Any])
        #expect(document["pageCount"] as? Int == 3)
        #expect((document["pages"] as? [[String: Any]])?.compactMap { $0["page"] as? Int } == [1, 2, 3])
        let lines = try String(contentsOf: results.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let pages = Dictionary(uniqueKeysWithValues: lines.compactMap { $0 }.map { ($0["input"] as? String ?? "", $0["pages"] as? Int) })
        #expect(pages == ["poems.tif": 3, "stanza.heic": 1])
    }

    @Test("A page that cannot be read is an error with its number; the other pages are written, and the exit code says so")
    func failingPage() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.threePages)))
        // Page 2's StripOffsets point past the end of the file.
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let second = u32(u32(4) + 2 + u16(u32(4)) * 12)
        for index in 0..<u16(second) where u16(second + 2 + index * 12) == 273 {
            for offset in 0..<4 { bytes[second + 2 + index * 12 + 8 + offset] = 0xF0 }
        }
        let input = folder.appendingPathComponent("booklet.tif")
        try Data(bytes).write(to: input)
        let output = folder.appendingPathComponent("booklet.txt")
        let run = try await BinaryRun.run([input.path, "--output", output.path])
        #expect(run.status == 1)
        #expect(
            run.error.contains(
                "snap-poem: error: \(input.path) (page 2 of 3): the TIFF data is damaged or truncated and could not be decoded"),
            "\(run.error)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.hasPrefix("Lenore\n") && text.contains("Hope") && text.components(separatedBy: "\u{0C}\n").count == 2)
    }

    @Test("--annotate draws page 1 and says so, or the page --annotate-page names")
    func annotatePage() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.png").path
        let run = try await BinaryRun.run([Self.threePages, "--annotate", first])
        #expect(run.status == 0)
        #expect(run.error.contains("the file has 3 pages; the images show page 1, and another page can be chosen (--annotate-page)"))
        let second = folder.appendingPathComponent("second.png").path
        let chosen = try await BinaryRun.run([Self.threePages, "--annotate", second, "--annotate-page", "2"])
        #expect(chosen.status == 0 && chosen.error.isEmpty, "\(chosen.error)")
        #expect(FileManager.default.fileExists(atPath: first) && FileManager.default.fileExists(atPath: second))
        let past = try await BinaryRun.run([
            Self.threePages, "--annotate", folder.appendingPathComponent("past.png").path, "--annotate-page", "4",
        ])
        #expect(past.status == 73 && past.error.contains("page 4 cannot be shown: the file has 3 pages"), "\(past.error)")
        let alone = try await BinaryRun.run([Self.threePages, "--annotate-page", "2"])
        #expect(alone.status == 64)
    }
}
