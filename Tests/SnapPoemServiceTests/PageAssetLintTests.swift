import Foundation
import Testing

@testable import SnapPoemService

/// The page's style sheet and script as files (`Sources/SnapPoemService/Page/Assets/`): what
/// the binary serves is their bytes, and each parses as what it is and keeps to what the
/// page's policy and its promises allow. The browser tests run them in Chromium besides.
@Suite("The page's CSS and JavaScript files")
struct PageAssetLintTests {
    static let folder = Fixtures.root.appendingPathComponent("Sources/SnapPoemService/Page/Assets")

    /// A file of the folder, as bytes.
    static func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// `node` (or Debian's `nodejs`) on the PATH, if any.
    static let node: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["node", "nodejs"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    @Test("The binary serves the files' bytes: compiled in, not looked up, the final line break left to the page")
    func servedAsWritten() throws {
        for (name, served) in [("page.css", PageAssets.styleSheet), ("page.js", PageAssets.script)] {
            let file = try Self.bytes(name)
            #expect(file.last == UInt8(ascii: "\n") && file.dropLast().last != UInt8(ascii: "\n"), "\(name) must end in one line break")
            #expect(String(validating: file, as: UTF8.self) != nil, "\(name) is not UTF-8")
            #expect(Data(served.utf8) == file.dropLast(), "the build serves another \(name) than the file: build again")
        }
        let page = ServicePage(nonce: "n", language: .english, maxUploadBytes: 20 << 20).form()
        #expect(page.contains("<style nonce=\"n\">\n" + PageAssets.styleSheet + "\n</style>"))
        #expect(page.contains("<script nonce=\"n\">\n" + PageAssets.script + "\n</script>"))
    }

    @Test("The style sheet parses: comments, strings and brackets closed, every block's declarations 'name: value'")
    func styleSheetParses() throws {
        let text = String(decoding: try Self.bytes("page.css"), as: UTF8.self)
        #expect(CSSCheck.problems(in: text) == [])
    }

    @Test(
        "The CSS check finds what it is for",
        arguments: [
            ("a { color: red; ", "line 1: '{' never closed"),
            ("a { color: red; } }", "line 1: '}' closes nothing"),
            ("a { color red; }", "line 1: 'color red' is not 'name: value'"),
            ("a { content: \"x; }", "line 1: string never closed"),
            ("/* a { }", "line 1: comment never closed"),
            ("a { b: calc(1px + (2px); }", "line 1: '}' closes '('"),
            ("{ color: red; }", "line 1: a block without a selector"),
        ])
    func styleCheckFails(css: String, problem: String) {
        #expect(CSSCheck.problems(in: css).contains(problem), "\(CSSCheck.problems(in: css))")
    }

    @Test("Neither file can end its element early, fetch anything, or write markup (the page's policy and promises)")
    func keepsToThePolicy() throws {
        let css = String(decoding: try Self.bytes("page.css"), as: UTF8.self).lowercased()
        let script = String(decoding: try Self.bytes("page.js"), as: UTF8.self)
        // The HTML parser ends a <style> or <script> at the first such tag, whatever the CSS or
        // JavaScript around it means; "<!--" switches a script into another parsing state.
        #expect(!css.contains("</style"))
        #expect(!script.lowercased().contains("</script") && !script.contains("<!--"))
        // default-src 'none': nothing may be fetched, so nothing tries.
        #expect(!css.contains("@import") && !css.contains("url("))
        for call in ["fetch(\"http", "XMLHttpRequest", "import(", "importScripts"] {
            #expect(!script.contains(call), "\(call)")
        }
        // The script sets only text and attributes and moves nodes: it writes no markup and
        // runs no strings.
        for call in [
            "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setTimeout(\"", "setInterval(\"",
        ] {
            #expect(!script.contains(call), "the script uses \(call)")
        }
        #expect(script.hasPrefix("(function () {\n  \"use strict\";"), "one strict function, nothing global")
    }

    @Test("The script is JavaScript: node --check parses it", .enabled(if: PageAssetLintTests.node != nil, "node is not installed"))
    func scriptParses() async throws {
        let node = try #require(Self.node)
        let (status, output) = try await Self.run(node, ["--check", Self.folder.appendingPathComponent("page.js").path])
        #expect(status == 0, "node --check page.js: \(output)")
        // And the check can fail: a script with a syntax error is refused.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("snap-poem-broken-\(UUID().uuidString).js")
        try Data("(function () { var a = ; })();\n".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let (brokenStatus, _) = try await Self.run(node, ["--check", broken.path])
        #expect(brokenStatus != 0)
    }

    /// Runs `tool` with `arguments`; its exit status and what it printed on standard error.
    static func run(_ tool: String, _ arguments: [String]) async throws -> (Int32, String) {
        try await RawHTTPClient.onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let error = Pipe()
            process.standardError = error
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let text = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: text, as: UTF8.self))
        }
    }
}

/// A small structural check of a style sheet, as CSS's tokenizer and parser see it:
/// comments and strings closed (a string may not run over a line end), brackets (`{}`, `()`,
/// `[]`) matched, every rule with a selector or an at-rule before its block, and every
/// declaration of a block that holds no other block written `name: value`. Not a validator of
/// property names or values: the browser tests see the page styled in Chromium.
enum CSSCheck {
    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        var line = 1
        var stack: [(bracket: Character, line: Int, contentStart: String.Index, nested: Bool)] = []
        var prelude = ""
        var index = text.startIndex
        func problem(_ message: String, at number: Int) { problems.append("line \(number): \(message)") }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "/", next < text.endIndex, text[next] == "*" {
                guard let end = text[text.index(after: next)...].range(of: "*/") else {
                    problem("comment never closed", at: line)
                    return problems
                }
                line += text[index..<end.upperBound].filter { $0 == "\n" }.count
                index = end.upperBound
                continue
            }
            if character == "\"" || character == "'" {
                var cursor = next
                var closed = false
                while cursor < text.endIndex {
                    let inner = text[cursor]
                    if inner == "\\" {
                        cursor = text.index(after: cursor)
                        if cursor < text.endIndex { cursor = text.index(after: cursor) }
                        continue
                    }
                    if inner == "\n" { break }
                    cursor = text.index(after: cursor)
                    if inner == character {
                        closed = true
                        break
                    }
                }
                guard closed else {
                    problem("string never closed", at: line)
                    return problems
                }
                prelude += text[index..<cursor]
                index = cursor
                continue
            }
            switch character {
            case "\n":
                line += 1
                prelude.append(" ")
            case "{", "(", "[":
                if character == "{" {
                    if let parent = stack.indices.last, stack[parent].bracket == "{" { stack[parent].nested = true }
                    let selector = prelude.split(separator: ";").last.map(String.init) ?? ""
                    if selector.trimmingCharacters(in: .whitespaces).isEmpty { problem("a block without a selector", at: line) }
                    prelude = ""
                } else {
                    prelude.append(character)
                }
                stack.append((character, line, next, false))
            case "}", ")", "]":
                let opening: Character = character == "}" ? "{" : character == ")" ? "(" : "["
                guard let top = stack.popLast() else {
                    problem("'\(character)' closes nothing", at: line)
                    break
                }
                guard top.bracket == opening else {
                    problem("'\(character)' closes '\(top.bracket)'", at: line)
                    return problems
                }
                if character == "}" {
                    if !top.nested { problems += declarationProblems(in: String(text[top.contentStart..<index]), line: top.line) }
                    prelude = ""
                } else {
                    prelude.append(character)
                }
            default:
                prelude.append(character)
            }
            index = next
        }
        for open in stack.reversed() { problem("'\(open.bracket)' never closed", at: open.line) }
        return problems
    }

    /// The declarations of a block with no block inside: each `name: value`, split at `;`
    /// outside strings and brackets.
    static func declarationProblems(in block: String, line: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        var escaped = false
        var inComment = false
        var previous: Character = " "
        for character in block {
            if inComment {
                if previous == "*" && character == "/" { inComment = false }
                previous = character
                continue
            }
            if quote == nil && previous == "/" && character == "*" {
                current.removeLast()
                inComment = true
                previous = " "
                continue
            }
            previous = character
            if let open = quote {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case ";" where depth == 0:
                pieces.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        pieces.append(current)
        let declaration = /^\s*-?-?[A-Za-z][A-Za-z0-9-]*\s*:\s*\S/
        return pieces.map { $0.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.firstMatch(of: declaration) == nil }
            .map { "line \(line): '\($0)' is not 'name: value'" }
    }
}
