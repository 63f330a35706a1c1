#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What make test-asan-ci's selection gives up: line coverage of snap-poem's unsafe code.

    make asan-ci-coverage            (or: Scripts/asan-ci-coverage.py REFERENCE_SKIP SELECTION_SKIP)

AddressSanitizer can only find a fault in code that runs, and in safe Swift it finds none:
what matters is which lines of the files with pointers or C calls the selection reaches. This
builds the tests with coverage (.build/coverage, no sanitizer), runs the reference (the
suites skipped by REFERENCE_SKIP left out: by default the whole suite but the timed and system
suites) and then the selection (ASAN_CI_SKIP left out), and prints how many of those lines
each reaches, and every line that only the reference reaches, by file.

"Files with pointers or C calls": Swift files of the library, the command, the server and the
service that use unsafe pointers or call Tesseract, Leptonica, libheif, libpng, libjpeg,
libmicrohttpd or posix_spawn, and the C and C++ files of the shims. Test failures (a tool
make test-system installs, a bound that the coverage build's slower code misses) do not stop
the comparison: the profiles of every process are merged whatever the outcome.
"""
import collections
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = ".build/coverage"
UNSAFE = re.compile(
    r"Unsafe|withUnsafe|OpaquePointer|pointee|\bPix\b|\bpix[A-Z]\w*\(|\bTess[A-Z]\w*\(|MHD_|heif_|png_|jpeg_|posix_spawn")
SWIFT_FOLDERS = ["Sources/SnapPoem", "Sources/SnapPoemCLI", "Sources/SnapPoemServer", "Sources/SnapPoemService"]
C_FOLDERS = ["Sources/CProcessOverrides", "Sources/CTesseractShim", "Sources/CProcessGuard", "Sources/CHeif"]


def unsafe_files():
    files = []
    for folder in SWIFT_FOLDERS:
        for path in sorted(glob.glob(f"{folder}/**/*.swift", recursive=True)):
            with open(path, encoding="utf-8") as source:
                if UNSAFE.search(source.read()):
                    files.append(path)
    for folder in C_FOLDERS:
        files += sorted(p for p in glob.glob(f"{folder}/*") if p.endswith((".c", ".cpp")))
    return files


def run(name, skip, bin_path):
    """Runs the suite less `skip` with coverage; returns the merged profile's path."""
    profiles = os.path.join(bin_path, "codecov")
    for old in glob.glob(os.path.join(profiles, "*.profraw")):
        os.remove(old)
    print(f"asan-ci-coverage: running the {name} (every suite but /{skip[:80]}…/)", flush=True)
    with open(f"{SCRATCH}/{name}.log", "w") as log:
        status = subprocess.call(
            ["swift", "test", "--skip-build", "--enable-code-coverage", "--scratch-path", SCRATCH, "--skip", skip],
            stdout=log, stderr=subprocess.STDOUT)
    if status != 0:
        print(f"asan-ci-coverage: some tests of the {name} failed (see {SCRATCH}/{name}.log); comparing anyway")
    merged = f"{SCRATCH}/{name}.profdata"
    raws = glob.glob(os.path.join(profiles, "*.profraw"))
    if not raws:
        sys.exit(f"asan-ci-coverage: the {name} wrote no profile")
    subprocess.check_call([tool("llvm-profdata"), "merge", "-sparse", *raws, "-o", merged])
    return merged


def tool(name):
    swift = subprocess.check_output(["bash", "-c", "command -v swift"], text=True).strip()
    return os.path.join(os.path.dirname(os.path.realpath(swift)), name)


def reached(profile, bin_path, files):
    """The lines each file has that run, and those that ran, from one merged profile."""
    objects = [os.path.join(bin_path, "snap-poemPackageTests.xctest"), "-object", os.path.join(bin_path, "snap-poem")]
    export = subprocess.run(
        [tool("llvm-cov"), "export", "-format=lcov", "-instr-profile", profile, *objects, *map(os.path.abspath, files)],
        capture_output=True, text=True, check=True).stdout
    ran, lines, current = collections.defaultdict(set), collections.defaultdict(set), None
    for line in export.splitlines():
        if line.startswith("SF:"):
            current = os.path.relpath(line[3:], ROOT)
        elif line.startswith("DA:"):
            number, count = line[3:].split(",")[:2]
            lines[current].add(int(number))
            if int(count) > 0:
                ran[current].add(int(number))
    return ran, lines


def main():
    os.chdir(ROOT)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    reference_skip, selection_skip = sys.argv[1:]
    os.environ.setdefault("TMPDIR", os.path.join(ROOT, ".build/tmp"))
    os.makedirs(os.environ["TMPDIR"], exist_ok=True)
    subprocess.check_call(["swift", "build", "--build-tests", "--enable-code-coverage", "--scratch-path", SCRATCH])
    bin_path = subprocess.check_output(["swift", "build", "--show-bin-path", "--scratch-path", SCRATCH], text=True).strip()
    files = unsafe_files()
    reference, lines = reached(run("reference", reference_skip, bin_path), bin_path, files)
    selection, _ = reached(run("selection", selection_skip, bin_path), bin_path, files)
    total = sum(len(v) for v in lines.values())
    in_reference = sum(len(v) for v in reference.values())
    in_selection = sum(len(v) for v in selection.values())
    print(f"asan-ci-coverage: {len(files)} files with pointers or C calls, {total} lines that run;"
          f" the reference reaches {in_reference}, the selection {in_selection}")
    for path in sorted(reference):
        lost = sorted(reference[path] - selection.get(path, set()))
        if lost:
            print(f"  only the reference reaches {path}: {', '.join(map(str, lost))}")


if __name__ == "__main__":
    main()
