import Foundation
import Testing

@Suite("The shape of a batch's output: JSON Lines whatever the batch size, one file for a batch, names that never collide")
struct OutputShapeTests {
    /// Each line of `text` parsed as one JSON object.
    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }

    @Test("A folder holding one image gives JSON Lines with --format json, like a folder of many")
    func folderOfOne() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        defer { BatchFixtures.remove(input) }
        let run = try await BinaryRun.run([input.path, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.split(separator: "\n").count == 1)
        #expect(try Self.jsonLines(run.output).first?["source"] as? String == input.path + "/a.jpg")
    }

    @Test("--format jsonl gives one line per image for a single file too; -o FILE.jsonl collects a whole batch")
    func jsonlFormatAndFile() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small, "b.jpg": BatchFixtures.small, "c.png": ""])
        let results = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, results) }
        let single = try await BinaryRun.run([input.appendingPathComponent("a.jpg").path, "--format", "jsonl"])
        #expect(single.status == 0, "\(single.error)")
        #expect(single.output.split(separator: "\n").count == 1)
        let file = results.appendingPathComponent("all.jsonl")
        let batch = try await BinaryRun.run([input.path, "-o", file.path])
        #expect(batch.status == 1)
        #expect(batch.output.isEmpty)
        let lines = try Self.jsonLines(try String(contentsOf: file, encoding: .utf8))
        #expect(lines.map { $0["source"] as? String } == [input.path + "/a.jpg", input.path + "/b.jpg"])
        let again = try await BinaryRun.run([input.path, "-o", file.path])
        #expect(again.status == 73, "an existing file is refused before any image is read")
        #expect(
            again.error
                == "snap-poem: error: \(file.path): output not written (the file exists, and replacing it was not asked for); nothing was left behind (--force)\n"
        )
    }

    @Test("Output names of 238 and 255 bytes are written, in --output-dir and with -o, and a rerun resumes them")
    func longOutputNames() async throws {
        let medium = String(repeating: "m", count: 234)
        let longest = String(repeating: "l", count: 251)
        let input = try BatchFixtures.folder([medium + ".jpg": BatchFixtures.small, longest + ".jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(try BatchFixtures.files(output) == [longest + ".txt", "manifest.jsonl", medium + ".txt"])
        let again = try await BinaryRun.run([input.path, "--output-dir", output.path, "--format", "markdown"])
        #expect(again.status == 0, "\(again.error)")
        let back = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(back.status == 0, "\(back.error)")
        #expect(back.error.hasSuffix("snap-poem: 2 images: 2 written, 0 skipped (done before), 0 failed, 0 cancelled\n"))

        let single = output.appendingPathComponent(String(repeating: "s", count: 251) + ".txt").path
        let one = try await BinaryRun.run([input.appendingPathComponent(medium + ".jpg").path, "-o", single])
        #expect(one.status == 0, "\(one.error)")
        #expect(try String(contentsOfFile: single, encoding: .utf8).contains("upright"))
        #expect(try BatchFixtures.files(output).filter { $0.hasPrefix(".") } == [], "no temporary file left")
    }

    @Test("Outputs that clash get the advice that fits: one file given twice, --keep-extension only where it parts them")
    func clashAdvice() async throws {
        let input = try BatchFixtures.folder([
            "in/a.jpg": BatchFixtures.small, "in/a.png": BatchFixtures.small, "in2/a.jpg": BatchFixtures.small,
        ])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let (folder, other, file) = (input.path + "/in", input.path + "/in2", input.path + "/in/a.jpg")
        let out = output.path
        let cases: [([String], String)] = [
            (
                [file, file],
                "'\(file)' is given twice (both would be written to '\(out)/a.txt'); name each image, and each folder, once.\n"
            ),
            ([file, file, "--keep-extension"], "'\(file)' is given twice (both would be written to '\(out)/a.jpg.txt')"),
            ([file, input.path + "/in/./a.jpg"], "'\(file)' and '\(input.path)/in/./a.jpg' are the same file, given twice"),
            ([folder, folder, "--keep-extension"], "'\(file)' is given twice (both would be written to '\(out)/a.jpg.txt')"),
            ([folder], "'\(file)' and '\(folder)/a.png' would both be written to '\(out)/a.txt'; add '--keep-extension'"),
            (
                [folder, other, "--keep-extension"],
                "'\(file)' and '\(other)/a.jpg' would both be written to '\(out)/a.jpg.txt', even with --keep-extension: they have the same name below the folders given; read them in separate runs, each with its own --output-dir, or rename one."
            ),
            ([folder, other], "'\(file)' and '\(other)/a.jpg' would both be written to '\(out)/a.txt': they have the same name"),
        ]
        for (arguments, expected) in cases {
            let run = await CapturedRun.run(arguments + ["--output-dir", out])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.error.hasPrefix("snap-poem: error: " + expected), "\(arguments): \(run.error)")
            #expect(!run.error.contains("add '--keep-extension'") || !arguments.contains("--keep-extension"))
        }
        #expect(try BatchFixtures.files(output) == [], "refused before anything is read or written")
    }

    @Test("An output that is a file where another needs a folder (a.txt and a.txt/b.txt) is refused before anything is read")
    func fileInTheWay() async throws {
        let input = try BatchFixtures.folder(["a.png": BatchFixtures.small, "a.txt/b.png": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let (out, dir) = (output.path, input.path)
        let run = await CapturedRun.run([dir, "--output-dir", out])
        #expect(run.status == 64, "\(run.error)")
        #expect(
            run.error.hasPrefix(
                "snap-poem: error: '\(dir)/a.png' would be written to '\(out)/a.txt', where '\(dir)/a.txt/b.png' needs a folder of that name (for '\(out)/a.txt/b.txt'); add '--keep-extension' to name outputs after whole input names, or rename one.\n"
            ),
            "\(run.error)")
        #expect(try BatchFixtures.files(output) == [], "refused before anything is read or written")
        // --keep-extension parts those (a.png.txt, a.txt/b.png.txt); with it given, a clash
        // of its own (a.png.txt, a.png.txt/b.png.txt) gets no such advice.
        let both = try BatchFixtures.folder(["a.png": BatchFixtures.small, "a.png.txt/b.png": BatchFixtures.small])
        defer { BatchFixtures.remove(both) }
        let kept = await CapturedRun.run([both.path, "--output-dir", out, "--keep-extension"])
        #expect(kept.status == 64, "\(kept.error)")
        #expect(
            kept.error.contains("needs a folder of that name (for '\(out)/a.png.txt/b.png.txt'); rename one of them.\n"), "\(kept.error)")
    }

    @Test("--keep-extension writes stanza.jpg and stanza.png to stanza.jpg.txt and stanza.png.txt")
    func keepExtension() async throws {
        let input = try BatchFixtures.folder(["stanza.jpg": BatchFixtures.small, "stanza.png": BatchFixtures.stanza])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let clash = try await BinaryRun.run([input.path, "--output-dir", output.path])
        #expect(clash.status == 64)
        #expect(clash.error.contains("add '--keep-extension'"))
        let run = try await BinaryRun.run([input.path, "--output-dir", output.path, "--keep-extension"])
        #expect(run.status == 0, "\(run.error)")
        #expect(try BatchFixtures.files(output) == ["manifest.jsonl", "stanza.jpg.txt", "stanza.png.txt"])
    }
}
