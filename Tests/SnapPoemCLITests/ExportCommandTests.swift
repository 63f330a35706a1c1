import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

@testable import SnapPoemCLI

/// Runs `python3 -c script` with `input` on standard input (standard library only).
private func python(_ script: String, input: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script]
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}

/// Writes an executable shell script named `name` into `folder`.
/// Writes the shell script `name` in `folder`. A child process (`install`) writes the file that
/// is run, never this one: a file this process held open for writing is inherited by the
/// processes other tests start meanwhile, and running it then fails with ETXTBSY ("text file
/// busy") for as long as they live (seen on Debian 13, 2026-12-07).
private func writeScript(_ name: String, in folder: URL, _ body: String) throws {
    let path = folder.appendingPathComponent(name).path
    let draft = folder.appendingPathComponent(".\(name).draft")
    try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: draft)
    defer { try? FileManager.default.removeItem(at: draft) }
    let install = Process()
    install.executableURL = URL(fileURLWithPath: "/usr/bin/install")
    install.arguments = ["-m", "0755", draft.path, path]
    try install.run()
    install.waitUntilExit()
    guard install.terminationStatus == 0 else { throw ScriptNotWritten(path: path) }
}

/// `writeScript` could not install its script.
private struct ScriptNotWritten: Error {
    /// Where the script was to be.
    let path: String
}

@Suite("Command line: --format, --to, --subject, --mailto, --copy")
struct ExportCommandLineTests {
    @Test(
        "Inconsistent or bad export options are usage errors, exit 64, before any image is read",
        arguments: [
            (
                ["L.png", "--format", "pdf"],
                "Invalid value 'pdf' for '--format <FORMAT>': expected one of text, markdown, html, json, jsonl, eml, hocr, tsv, alto."
            ),
            (
                ["L.png", "-o", "poem.doc"],
                "Cannot tell the format of '--output poem.doc' from its extension; add '--format <FORMAT>' (text, markdown, html, json, jsonl, eml, hocr, tsv, alto)."
            ),
            (
                ["L.png", "--mailto", "--format", "json"],
                "'--mailto' prints a mailto: URL; it cannot be combined with '--format' or '--output'."
            ),
            (
                ["L.png", "--mailto", "-o", "poem.txt"],
                "'--mailto' prints a mailto: URL; it cannot be combined with '--format' or '--output'."
            ),
            (["L.png", "--copy", "-o", "poem.txt"], "'--copy' and '--output' both take the result; choose one."),
            (["L.png", "--to", "alex@example.org"], "'--to' applies only to '--format eml' and '--mailto'."),
            (["L.png", "--format", "html", "--subject", "Hi"], "'--subject' applies only to '--format eml' and '--mailto'."),
            (
                ["a.png", "b.png", "--format", "html"],
                "'--format html' makes one document per image, but 2 images were given; run snap-poem once per image."
            ),
            (["L.png", "--format", "eml", "--to", "alex"], "Invalid value: to: 'alex' is not an e-mail address like name@example.org."),
            (
                ["L.png", "--mailto", "--subject", "Hi\nBcc: x@y.org"],
                "Invalid value: subject: the subject must be one line, without control characters."
            ),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) async {
        let result = await CapturedRun.run(arguments)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("snap-poem: error: \(message)\n"), "\(result.error)")
    }

    @Test(
        "The format comes from --format or --output, and the rendering it needs is requested",
        arguments: [
            (["L.png"], ExportFormat.text, Set<PageRenderingFormat>()),
            (["L.png", "-o", "-"], .text, []),
            (["L.png", "-o", "note.HTML"], .html, []),
            (["L.png", "-o", "page.hocr"], .hocr, [.hocr]),
            (["L.png", "-o", "page.xml"], .alto, [.alto]),
            (["L.png", "--format", "tsv"], .tsv, [.tsv]),
            (["L.png", "--format", "markdown", "-o", "poem.txt"], .markdown, []),
            (["a.png", "b.png", "--format", "json"], .json, []),
        ] as [([String], ExportFormat, Set<PageRenderingFormat>)])
    func binding(arguments: [String], format: ExportFormat, renderings: Set<PageRenderingFormat>) throws {
        let options = try CommandOptions(try ParsedArguments.parse(arguments))
        #expect(options.export.format == format)
        #expect(options.scan.recognition.renderings == renderings)
    }

    @Test("--to takes a list; --mailto and --copy are flags")
    func emailOptions() throws {
        let options = try CommandOptions(
            try ParsedArguments.parse(["L.png", "--mailto", "--copy", "--to", "Zoë <z@example.org>, a@b.org", "--subject", "Pour toi"]))
        #expect(options.export.to.map(\.address) == ["z@example.org", "a@b.org"])
        #expect(options.export.subject == "Pour toi")
        #expect(options.export.mailtoLink && options.copy)
    }

    @Test("--copy with no clipboard tool: a clear message and exit 71, before any image is read")
    func copyWithoutTool() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let console = CapturedConsole()
        let status = await SnapPoemCommand.run(
            ["does-not-exist.png", "--copy"], console: console.console, environment: ["PATH": folder.path, "DISPLAY": ":0"])
        #expect(status == 71)
        #expect(console.error == "snap-poem: error: --copy: no clipboard tool found (install wl-clipboard, xclip or xsel)\n")
        #expect(console.output.isEmpty)
    }

    @Test("--copy with a tool but no display says so")
    func copyWithoutDisplay() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeScript("xclip", in: folder, "cat > /dev/null")
        let console = CapturedConsole()
        let status = await SnapPoemCommand.run(["x.png", "--copy"], console: console.console, environment: ["PATH": folder.path])
        #expect(status == 71)
        #expect(console.error.hasPrefix("snap-poem: error: --copy: xclip found, but there is no display to copy to"))
    }

    @Test(
        "The clipboard tool is chosen by session",
        arguments: [
            (["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], "wl-copy", [String]()),
            (["DISPLAY": ":0"], "xclip", ["-selection", "clipboard"]),
            (["WAYLAND_DISPLAY": "wayland-0"], "wl-copy", []),
        ] as [([String: String], String, [String])])
    func toolChoice(session: [String: String], tool: String, arguments: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["wl-copy", "xclip", "xsel"] { try writeScript(name, in: folder, "exit 0") }
        let found = try Clipboard.find(in: session.merging(["PATH": "/nonexistent:" + folder.path]) { $1 }).get()
        #expect(found.executable == folder.appendingPathComponent(tool).path)
        #expect(found.arguments == arguments)
    }
}

/// A console whose output is read back after the run.
private final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData = Data()
    private var errorText = ""

    var console: Console {
        Console(
            writeOutput: { data in self.lock.withLock { self.outputData.append(data) } },
            writeError: { text in self.lock.withLock { self.errorText += text } },
            errorIsTerminal: false)
    }
    var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
    var error: String { lock.withLock { errorText } }
}

@Suite("Exports through the built executable, on the real Lenore.png")
struct ExportEndToEndTests {
    static let lenore = Fixtures.sample("Lenore.png")

    @Test("-o note.html writes the love note; the format comes from the extension")
    func html() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("for-alex.html").path
        let result = try await BinaryRun.run([Self.lenore, "-r", "Lenore=Alex", "-o", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.isEmpty)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<title>Alex</title>") && html.contains("<h1>Alex</h1>"))
        #expect(!html.contains("Lenore"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["for-alex.html"])
    }

    @Test("Several images as JSON: one document per line (JSON Lines), in order; a failed one is left out")
    func jsonLines() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.png").path
        let french = Fixtures.sample("chanson-d-automne.png")
        let result = try await BinaryRun.run([Self.lenore, missing, french, "--format", "json", "--lang", "fra+eng", "-r", "Lenore=Alex"])
        #expect(result.status == 1)
        #expect(
            result.error == "snap-poem: error: \(missing): no such file\n"
                + "snap-poem: warning: \(french): 'Lenore' not found\n"
                + "snap-poem: 3 images: 2 written, 0 skipped (done before), 1 failed, 0 cancelled\n")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let documents = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(documents.map { $0["source"] as? String } == [Self.lenore, french])
        #expect(documents.allSatisfy { $0["schemaVersion"] as? Int == 1 })
        #expect((documents[0]["text"] as? String)?.hasPrefix("Alex\n\n") == true)
        #expect((documents[1]["text"] as? String)?.contains("violons") == true)
    }

    @Test("--format eml: a draft Python's email package reads back, body equal to the text export")
    func emailDraft() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let draft = folder.appendingPathComponent("draft.eml").path
        let plain = try await BinaryRun.run([Self.lenore, "-r", "Lenore=Alex"])
        let result = try await BinaryRun.run([
            Self.lenore, "-r", "Lenore=Alex", "-o", draft, "--to", "Alex Poe <alex@example.org>", "--subject", "Un poème pour toi ♥",
        ])
        #expect(result.status == 0, "\(result.error)")
        let script = """
            import sys, json, email
            from email import policy
            m = email.message_from_bytes(sys.stdin.buffer.read(), policy=policy.default)
            print(json.dumps({"subject": str(m["subject"]), "to": str(m["to"]), "unsent": m["x-unsent"],
                "date": bool(m["date"].datetime), "id": str(m["message-id"]),
                "body": m.get_body(preferencelist=("plain",)).get_content()}))
            """
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(python(script, input: try Data(contentsOf: URL(fileURLWithPath: draft))).utf8))
                as? [String: Any])
        #expect(parsed["subject"] as? String == "Un poème pour toi ♥")
        #expect(parsed["to"] as? String == "Alex Poe <alex@example.org>")
        #expect(parsed["unsent"] as? String == "1")
        #expect(parsed["date"] as? Bool == true)
        #expect((parsed["id"] as? String)?.hasSuffix("@snap-poem.invalid>") == true)
        #expect((parsed["body"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == plain.output)
    }

    @Test("--mailto prints one mailto: URL with the poem as its body")
    func mailto() async throws {
        let result = try await BinaryRun.run([Self.lenore, "-r", "Lenore=Alex", "--mailto", "--to", "alex@example.org"])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.hasPrefix(
                "mailto:alex@example.org?subject=Alex&body=Alex%0D%0A%0D%0AAh%2C%20broken%20is%20the%20golden%20bowl%21"))
        #expect(result.output.hasSuffix("%0D%0A\n"))
        #expect(result.output.split(separator: "\n").count == 1)
        // Lenore is long: the URL works, but some programs cut URLs of more than 2 000 characters.
        #expect(result.error.contains("warning: \(Self.lenore): the mailto: URL is "))
        #expect(result.error.contains("an e-mail draft (eml) is the safer way"))
    }

    @Test("-o page.hocr asks Tesseract for hOCR and writes a complete, personalised document")
    func hocr() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("page.hocr").path
        let result = try await BinaryRun.run([Self.lenore, "-r", "Lenore=Alex", "-o", output])
        #expect(result.status == 0, "\(result.error)")
        let root = try python(
            "import sys, xml.etree.ElementTree as E; r = E.fromstring(sys.stdin.buffer.read()); "
                + "print(r.tag, sum(1 for e in r.iter() if e.get('class') == 'ocrx_word' and (e.text or '').startswith('Alex')))",
            input: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(root == "{http://www.w3.org/1999/xhtml}html 3\n")
    }

    @Test("--copy hands exactly the poem to the clipboard tool, and prints nothing")
    func copy() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clipboard = folder.appendingPathComponent("clipboard.txt").path
        try writeScript("xclip", in: folder, "[ \"$1 $2\" = \"-selection clipboard\" ] || exit 9\n/bin/cat > '\(clipboard)'")
        try writeScript("failing", in: folder, "exit 3")
        let environment = ["PATH": folder.path, "DISPLAY": ":99"]
        let result = try await BinaryRun.run([Self.lenore, "-r", "Lenore=Alex", "--copy"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.isEmpty)
        let copied = try String(contentsOfFile: clipboard, encoding: .utf8)
        #expect(copied.hasPrefix("Alex\n\nAh, broken is the golden bowl!"))
        #expect(copied.hasSuffix("beside the King of Heaven.”\n"))

        try FileManager.default.removeItem(atPath: folder.appendingPathComponent("xclip").path)
        try FileManager.default.moveItem(
            atPath: folder.appendingPathComponent("failing").path, toPath: folder.appendingPathComponent("xclip").path)
        let failed = try await BinaryRun.run([Self.lenore, "--copy"], environment: environment)
        #expect(failed.status == 71)
        #expect(failed.error == "snap-poem: error: --copy: xclip failed (exit status 3); nothing was copied\n")
        #expect(failed.output.isEmpty)
    }

    @Test("A folder nobody may write to: exit 73, the reason, the old file kept, nothing left behind")
    func unwritableFolder() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poem.txt").path
        try Data("old poem\n".utf8).write(to: URL(fileURLWithPath: output))
        // Root ignores a folder's write permission, so as root the folder is made immutable
        // (chattr +i), which binds root too; other users get chmod 555. A probe checks it.
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, folder.path]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        if RootStep.isRoot {
            if let reason = RootStep.unavailable { try Test.cancel(Comment(rawValue: reason)) }
            if !chattr("+i") { try Test.cancel("running as root and chattr +i failed; cannot make a folder root cannot write") }
        } else {
            chmod(folder.path, 0o555)
        }
        defer {
            if RootStep.isRoot && RootStep.isAllowed { _ = chattr("-i") }
            chmod(folder.path, 0o755)
        }
        if FileManager.default.createFile(atPath: folder.appendingPathComponent("probe").path, contents: Data()) {
            try Test.cancel("the folder is still writable on this file system")
        }
        let result = try await BinaryRun.run([Self.lenore, "-o", output, "--force"])
        #expect(result.status == 73)
        #expect(result.error.hasPrefix("snap-poem: error: \(output): output not written ("))
        #expect(result.error.hasSuffix("); nothing was left behind\n"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old poem\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["poem.txt"])
    }

    @Test("An output in a folder that does not exist, or under a file, is refused before the image is read")
    func outputFolderMissing() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no-such-folder/poem.txt").path
        let first = try await BinaryRun.run([Self.lenore, "-o", missing])
        #expect(first.status == 73)
        #expect(
            first.error
                == "snap-poem: error: \(missing): output not written (the folder \(folder.path)/no-such-folder does not exist); nothing was left behind\n"
        )
        let underFile = Self.lenore + "/poem.txt"
        let second = try await BinaryRun.run([Fixtures.sample("formats/stanza-rgb8.png"), "-o", underFile])
        #expect(second.status == 73)
        #expect(second.error.contains("\(underFile): output not written (\(Self.lenore) is not a folder)"), "\(second.error)")
        // Refused from the path: no recognition line, no progress, nothing written.
        #expect(first.output.isEmpty && second.output.isEmpty)
    }

    @Test("A full disk: exit 73, the reason, and nothing left behind")
    func diskFull() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        if let reason = RootStep.unavailable { try Test.cancel(Comment(rawValue: reason)) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=16k", "tmpfs", folder.path]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        if mount.terminationStatus != 0 { try Test.cancel("mount -t tmpfs failed; no small file system to fill") }
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [folder.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        let output = folder.appendingPathComponent("poem.json").path
        let result = try await BinaryRun.run([Self.lenore, "-o", output])
        #expect(result.status == 73)
        #expect(result.error == "snap-poem: error: \(output): output not written (no space left on device); nothing was left behind\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
