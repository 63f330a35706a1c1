import Foundation
import SnapPoem
import Testing

@Suite("Careless input: messages that say what is true")
struct CarelessInputTests {
    @Test("--check-manifests counts one unreadable line, and one stranger entry, in the singular")
    func singularCounts() async throws {
        let input = try BatchFixtures.folder(["a.jpg": BatchFixtures.small])
        let output = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(input, output) }
        let stranger = ManifestEntry(input: "gone.png", path: "old/gone.png", contentHash: nil, optionsHash: "sha256:o", status: .failed)
        try (Data("not a manifest line\n".utf8) + stranger.line).write(to: output.appendingPathComponent("manifest.jsonl"))
        let run = await CapturedRun.run([input.path, "--output-dir", output.path, "--check-manifests"])
        #expect(run.status == 1)
        #expect(
            run.output.hasSuffix(
                "snap-poem: 1 image, 1 manifest: 0 covered once, 1 missing, 0 duplicated, 0 failed; 1 manifest entry names no input given; 1 unreadable manifest line\n"
            ), "\(run.output)")
    }

    @Test("A path through a file names the part that is not a folder, for an image and for a replacements file")
    func pathThroughAFile() async {
        let lenore = Fixtures.sample("Lenore.png")
        let image = await CapturedRun.run([lenore + "/x.png"])
        #expect(image.status == 1)
        #expect(image.error == "snap-poem: error: \(lenore)/x.png: cannot read the file (\(lenore) is not a folder)\n")
        let replacements = await CapturedRun.run([lenore, "--replacements", lenore + "/names.txt"])
        #expect(replacements.status == 64)
        #expect(replacements.error.hasPrefix("snap-poem: error: \(lenore)/names.txt: cannot read the file (\(lenore) is not a folder)\n"))
    }

    @Test("--replacements naming a device or FIFO says what a replacements file is, not what images are")
    func replacementsNotARegularFile() async {
        let run = await CapturedRun.run([Fixtures.sample("Lenore.png"), "--replacements", "/dev/zero"])
        #expect(run.status == 64)
        #expect(
            run.error.hasPrefix(
                "snap-poem: error: /dev/zero: cannot read the file (it is a character device, not a regular file; a replacements file is a regular file of FIND=REPLACE lines)\n"
            ), "\(run.error)")
        #expect(run.error.split(separator: "\n").first?.contains("image") == false)
    }

    @Test("-r FIND= with nothing after '=' deletes FIND with a warning (none with -q); a file's empty REPLACE is deliberate")
    func emptyReplace() async throws {
        let image = BatchFixtures.small
        let run = await CapturedRun.run([image, "-r", "text=", "-r", "upright=up"])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.error
                == "snap-poem: warning: '--replace text=' has nothing after '=': 'text' is deleted from the poem, not replaced (an empty shell variable does this)\n"
        )
        #expect(run.output.contains("should read up,") && !run.output.contains("text"), "\(run.output)")
        let quiet = await CapturedRun.run([image, "-r", "text=", "-q"])
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty, "\(quiet.error)")
        let folder = try Fixtures.temporaryFolder()
        defer { BatchFixtures.remove(folder) }
        let file = folder.appendingPathComponent("names.txt").path
        try Data("# snap-poem replacements v1\ntext =\n".utf8).write(to: URL(fileURLWithPath: file))
        let fromFile = await CapturedRun.run([image, "--replacements", file])
        #expect(fromFile.error.isEmpty, "\(fromFile.error)")
    }

    @Test("--help says when '#' starts a comment in a replacements file, and the parser agrees")
    func commentHelp() async throws {
        let help = await CapturedRun.run(["--help"])
        let flat = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("a line starting with '#' is a comment, but a '#' after '=' is part of REPLACE."), "\(flat)")
        let pairs = try ReplacementsFile.parse("# snap-poem replacements v1\n  # a comment\nLenore = Alex # my love\n", path: "names.txt")
        #expect(pairs == [Replacement(find: "Lenore", replaceWith: "Alex # my love")])
    }
}
