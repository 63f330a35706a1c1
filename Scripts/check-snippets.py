#!/usr/bin/env python3
"""Compiles every Swift code block of the given Markdown files, so documentation cannot rot.

    Scripts/check-snippets.py [--modules DIR] FILE.md|FILE.swift...
    Scripts/check-snippets.py --self-test

Code blocks (```swift) of one Markdown file are compiled in order as the body of one
`async throws` function, against the SnapPoem module built by `swift build` (in DIR, by
default the debug build's Modules folder): a block may use what the blocks before it in the
same file declared, as a reader following the text would. In a Swift file, each code block of
a doc comment (`///`) is compiled on its own, as DocC shows it on its own. `import` lines are
moved to the top. Compiler errors point at the documented file and line (through
#sourceLocation).

A block that is a package manifest (it imports PackageDescription) is evaluated by
`swift package dump-package` in a temporary folder instead, and every
`.product(name:package:)` in it must name one of its dependencies.

`--self-test` checks that a broken block does fail, naming its file and line.
"""
import json
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^(\s*)```\s*([A-Za-z0-9_+-]*)")


def swift_blocks(path):
    """(first line number, lines) of each ```swift block, in order."""
    blocks, current, start, indent = [], None, 0, ""
    with open(path, encoding="utf-8") as markdown:
        for number, line in enumerate(markdown, start=1):
            match = FENCE.match(line)
            if current is None:
                if match:
                    language, indent = match.group(2), match.group(1)
                    current, start = ([] if language == "swift" else None), number + 1
                    if current is None:
                        current = False  # another language: skip to its closing fence
            elif match and not match.group(2):
                if current is not False:
                    blocks.append((start, current))
                current = None
            elif current is not False:
                current.append(line[len(indent):] if line.startswith(indent) else line)
    if current:
        raise SystemExit(f"{path}: a ```swift block is not closed")
    return blocks


def doc_comment_blocks(path):
    """(first line number, lines) of each ```swift block in the `///` comments of a Swift file."""
    blocks, current, start = [], None, 0
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, start=1):
            stripped = line.strip()
            if not stripped.startswith("///"):
                current = None  # a block never runs past its comment
                continue
            text = stripped[3:]
            text = text[1:] if text.startswith(" ") else text
            match = FENCE.match(text)
            if current is None:
                if match and match.group(2) == "swift":
                    current, start = [], number + 1
            elif match and not match.group(2):
                blocks.append((start, current))
                current = None
            else:
                current.append(text + "\n")
    return blocks


def wrapped(shown, line, lines, imports):
    """A block's lines for a function body, imports moved out, line numbers kept."""
    body = [f'#sourceLocation(file: "{shown}", line: {line})\n']
    for text in lines:
        found = re.match(r"\s*import\s+(\w+)\s*$", text)
        if found:
            imports.add(found.group(1))
            body.append("\n")
        else:
            body.append(text)
    body.append("#sourceLocation()\n")
    return body


def check_manifest(path, line, lines):
    """Evaluates a Package.swift block; returns a list of problems."""
    with tempfile.TemporaryDirectory(prefix="snap-poem-manifest-") as folder:
        with open(os.path.join(folder, "Package.swift"), "w", encoding="utf-8") as manifest:
            manifest.writelines(lines)
        done = subprocess.run(["swift", "package", "dump-package", "--package-path", folder], capture_output=True, text=True)
    if done.returncode != 0:
        return [f"{path}:{line}: the manifest does not evaluate:\n{done.stderr.strip()}"]
    package = json.loads(done.stdout)
    names = set()
    for dependency in package["dependencies"]:
        for details in dependency.values():
            for entry in details:
                names.add(entry.get("identity"))
                names.add(entry.get("nameForTargetDependencyResolutionOnly"))
    problems = []
    for target in package["targets"]:
        for dependency in target.get("dependencies", []):
            product = dependency.get("product")
            if product and product[1] not in names:
                problems.append(f"{path}:{line}: .product(name: \"{product[0]}\", package: \"{product[1]}\") names no dependency")
    return problems


def module_flags(modules):
    # Every system-library module of the package (CTesseract, CProcessControl, …): SnapPoem's
    # module file names the ones it imports, and the compiler must find their module maps.
    flags = ["-I", modules]
    modulemaps = glob.glob(os.path.join(ROOT, "Sources", "C*", "module.modulemap"))
    modulemaps += glob.glob(os.path.join(ROOT, "Sources", "C*", "include", "module.modulemap"))
    for modulemap in sorted(modulemaps):
        flags += ["-Xcc", "-fmodule-map-file=" + modulemap]
    includes = subprocess.run(["pkg-config", "--cflags-only-I", "tesseract", "lept"], capture_output=True, text=True, check=True)
    for flag in includes.stdout.split():
        flags += ["-Xcc", flag]
    return flags


def check(files, modules):
    """Checks the files; returns (number of blocks, problems)."""
    imports, functions, problems, count = {"Foundation", "SnapPoem"}, [], [], 0
    for path in files:
        shown = os.path.relpath(path, ROOT)
        name = re.sub(r"\W", "_", shown)
        if path.endswith(".swift"):
            blocks = doc_comment_blocks(path)
            for line, lines in blocks:
                count += 1
                functions.append(f"func snippet_{name}_{line}() async throws {{\n{''.join(wrapped(shown, line, lines, imports))}}}\n")
            if blocks:
                print(f"check-snippets: {shown}: {len(blocks)} Swift block(s) in doc comments")
            continue
        body = []
        blocks = swift_blocks(path)
        for line, lines in blocks:
            count += 1
            if any(re.match(r"\s*import\s+PackageDescription\b", text) for text in lines):
                problems += check_manifest(shown, line, lines)
                continue
            body += wrapped(shown, line, lines, imports)
        print(f"check-snippets: {shown}: {len(blocks)} Swift block(s)")
        if body:
            functions.append(f"func snippets_{name}() async throws {{\n{''.join(body)}}}\n")
    if not functions:
        return count, problems
    with tempfile.TemporaryDirectory(prefix="snap-poem-snippets-") as folder:
        source = os.path.join(folder, "DocumentationSnippets.swift")
        with open(source, "w", encoding="utf-8") as generated:
            generated.write("// The Swift code blocks of the documentation, generated by Scripts/check-snippets.py.\n")
            generated.writelines(f"import {module}\n" for module in sorted(imports))
            generated.write("\n".join(functions))
        command = ["swiftc", "-c", "-parse-as-library", "-swift-version", "6", "-module-name", "DocumentationSnippets"]
        command += module_flags(modules) + [source, "-o", os.path.join(folder, "snippets.o")]
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if done.stderr:
            print(done.stderr, file=sys.stderr, end="")
        if done.returncode != 0:
            problems.append("the code blocks above do not compile")
    return count, problems


def default_modules():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True, check=True, cwd=ROOT)
    return os.path.join(bin_path.stdout.strip(), "Modules")


def self_test(modules):
    """A broken block must fail, naming its file and line."""
    with tempfile.TemporaryDirectory(prefix="snap-poem-snippets-self-test-") as folder:
        path = os.path.join(folder, "broken.md")
        with open(path, "w", encoding="utf-8") as markdown:
            markdown.write("# Broken\n\n```swift\nlet scanner = try await PoemScanner()\n")
            markdown.write("let poem = try await scanner.scan(fileAtPath: \"Lenore.png\")\n```\n")
        done = subprocess.run(
            [sys.executable, __file__, "--modules", modules, path], capture_output=True, text=True, cwd=ROOT
        )
    if done.returncode == 0 or "broken.md:5:" not in done.stderr:
        print(f"check-snippets: self-test failed: a broken block was not reported at broken.md:5\n{done.stderr}", file=sys.stderr)
        return 1
    print("check-snippets: self-test passed (a broken block fails, naming broken.md:5)")
    return 0


def main(arguments):
    modules = None
    if arguments[:1] == ["--modules"]:
        modules, arguments = arguments[1], arguments[2:]
    modules = modules or default_modules()
    if arguments == ["--self-test"]:
        return self_test(modules)
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 64
    count, problems = check([os.path.abspath(path) for path in arguments], modules)
    for problem in problems:
        print(f"check-snippets: {problem}", file=sys.stderr)
    if problems:
        return 1
    if count == 0:
        print("check-snippets: no Swift code blocks found; nothing was checked", file=sys.stderr)
        return 1
    print(f"check-snippets: {count} Swift block(s) compile")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
