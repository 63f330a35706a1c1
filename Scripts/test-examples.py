#!/usr/bin/env python3
"""Builds Examples/PoemTools, a separate package that depends on snap-poem by path, and
checks what its tools print on SampleImages/. Part of `make test` (`make examples`): a change
that breaks the public API, or the package-dependency lines, fails here.

Each check runs a built tool and compares stdout, stderr and the exit status with what the
snap-poem command itself prints for the same image, so OCR differences between Tesseract
versions cannot make it fail, but a consumer that gets other results than the CLI does.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "Examples", "PoemTools")
SAMPLES = os.path.join(ROOT, "SampleImages")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"  FAIL: {message}", file=sys.stderr)


def run(command, stdin=None):
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
        done = subprocess.run(command, stdin=source, capture_output=True)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def bin_path(package):
    return subprocess.run(
        ["swift", "build", "--package-path", package, "--show-bin-path"], capture_output=True, text=True, check=True
    ).stdout.strip()


def sample(name):
    return os.path.join(SAMPLES, name)


def main():
    start = time.monotonic()
    subprocess.run(["swift", "build", "--package-path", EXAMPLE], check=True)
    print(f"Examples/PoemTools built in {time.monotonic() - start:.1f} s")
    subprocess.run(["swift", "build", "--product", "snap-poem"], cwd=ROOT, check=True)
    tools = bin_path(EXAMPLE)
    to_json = os.path.join(tools, "poem-to-json")

    print("a program importing SnapPoem defines no function of another library (the executable's overrides)")
    overridden = [
        "pixWriteMemPng", "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_", "GOMP_parallel",
        "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait", "omp_get_thread_num",
        "omp_get_num_threads", "pixErodeBrick", "pixDilateBrick", "pixOpenBrick", "pixCloseBrick",
        "png_create_read_struct", "png_create_write_struct", "jpeg_std_error",
    ]
    for tool in ["poem-to-json", "poem-batch"]:
        defined = subprocess.run(
            ["nm", "-D", "--defined-only", os.path.join(tools, tool)], capture_output=True, text=True, check=True
        ).stdout.split()
        found = sorted(set(overridden) & set(defined))
        check(found == [], f"{tool} defines {len(found)} of the {len(overridden)}: {found}")
        everywhere = subprocess.run(["nm", os.path.join(tools, tool)], capture_output=True, text=True, check=True).stdout
        check("snap_poem_overrides_install" not in everywhere, f"{tool} links the executable's overrides")
    batch = os.path.join(tools, "poem-batch")
    snap_poem = os.path.join(bin_path(ROOT), "snap-poem")

    print("poem-to-json: a file, personalised, against the snap-poem command")
    stanza = sample("formats/stanza-rgb8.png")
    pairs = ["-r", "Lenore=Alex", "-r", "Guy De Vere=Sam"]
    status, out, err = run([to_json, *pairs, stanza])
    check(status == 0 and err == "", f"exit {status}, stderr {err!r}")
    records = [json.loads(line) for line in out.splitlines()]
    check(len(records) == 1, f"one JSON line expected, got {len(records)}")
    status, expected, _ = run([snap_poem, stanza, *pairs])
    check(status == 0, f"snap-poem exit {status}")
    if records:
        record = records[0]
        check(record["text"].rstrip("\n") == expected.rstrip("\n"), "the text differs from snap-poem's")
        check("thy love, Alex!" in record["text"] and "Lenore" not in record["text"], "Lenore not replaced")
        check([(c["line"], c["replacement"]) for c in record["changes"]] == [(3, "Sam"), (4, "Alex")], f"changes {record['changes']}")
        check(record["source"] == stanza, f"source {record['source']!r}")
        check(record["unmatched"] == [] and record["meanConfidence"] > 80, "unmatched or confidence")

    print("poem-to-json: the same image from a path and as bytes on standard input")
    gray = sample("formats/stanza-gray.png")
    status, out, err = run([to_json, "--replace", "Lenore=Alex", gray, "-"], stdin=gray)
    records = [json.loads(line) for line in out.splitlines()]
    check(status == 0 and len(records) == 2, f"exit {status}, {len(records)} lines, stderr {err!r}")
    if len(records) == 2:
        check(records[0]["text"] == records[1]["text"], "bytes and file read differently")
        check([r["source"] for r in records] == [gray, "-"], f"sources {[r['source'] for r in records]}")
        check("thy love, Alex!" in records[1]["text"], "stdin poem not personalised")

    print("poem-to-json: bad inputs are reported one line each, the rest is still read")
    missing = os.path.join(SAMPLES, "no-such-poem.png")
    empty = sample("formats/empty.png")
    status, out, err = run([to_json, missing, empty, stanza])
    check(status == 1, f"exit {status}, expected 1")
    check(len(out.splitlines()) == 1 and json.loads(out)["source"] == stanza, f"stdout {out!r}")
    check(
        err.splitlines() == [
            f"poem-to-json: error: {missing}: no such file",
            f"poem-to-json: error: {empty}: the file is empty (0 bytes), not an image",
        ],
        f"stderr {err!r}",
    )

    print("poem-to-json: usage errors")
    status, out, err = run([to_json, "--replace", "Lenore"])
    check(status == 64 and out == "" and "has no '='" in err, f"exit {status}, stderr {err!r}")
    status, out, err = run([to_json, "--replace"])
    check(status == 64 and "needs FIND=REPLACE" in err, f"exit {status}, stderr {err!r}")

    print("poem-batch: a folder, two workers, input order, progress, a bad file")
    folder = tempfile.mkdtemp(prefix="snap-poem-examples-")
    try:
        os.makedirs(os.path.join(folder, "b"))
        shutil.copy(stanza, os.path.join(folder, "a.png"))
        shutil.copy(sample("formats/stanza-gray.jpg"), os.path.join(folder, "b", "c.jpg"))
        shutil.copy(empty, os.path.join(folder, "b", "d.png"))
        with open(os.path.join(folder, "notes.txt"), "w") as notes:
            notes.write("not an image\n")
        status, out, err = run([batch, "--jobs", "2", "--progress", folder])
        rows = [line.split("\t") for line in out.splitlines()]
        check(status == 1, f"exit {status}, expected 1 (one image failed)")
        check([row[:2] for row in rows] == [["a.png", "ok"], ["b/c.jpg", "ok"], ["b/d.png", "failed"]], f"rows {rows}")
        check(all(row[1] != "ok" or "golden bowl" in row[3] for row in rows), "first lines")
        check(len(rows) == 3 and rows[2][2].endswith("b/d.png: the file is empty (0 bytes), not an image"), "error row")
        progress = [line.split(" ") for line in err.splitlines() if line.startswith("progress ")]
        check(len(progress) > 0, "no progress reported")
        check(all(p[2] in ("a.png", "b/c.jpg") and 0 <= int(p[1]) <= 100 for p in progress), f"progress {progress[:5]}")
        check(err.splitlines()[-1] == "poem-batch: 3 images: 2 read, 1 failed", f"summary {err.splitlines()[-1:]}")
    finally:
        shutil.rmtree(folder)

    if failures:
        print(f"test-examples: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print(f"test-examples: all checks passed in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
