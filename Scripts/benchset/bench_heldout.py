#!/usr/bin/python3
"""The held-out benchmark of `make bench`: snap-poem against the tesseract CLI and RapidOCR.

    bench_heldout.py --bin DIR --set DIR --tessdata DIR [--runs N] [--rapidocr PYTHON]

For every image of the set (Scripts/benchset/make_benchset.py), one process per image, the
commands alternating run by run so that machine noise hits all alike:
  snap-poem IMAGE --format json [--replace NAME=Alex]   (the defaults: two engines, language
                                                          choice, dewarping)
  snap-poem IMAGE --format json --engines 1              (the same with one engine)
  tesseract IMAGE - -l eng+fra                           (OMP_THREAD_LIMIT=1)
and RapidOCR warm in one process (its best case). Prints Markdown: per image, per category
(CER, the time ratio against the CLI next to it), accents, names, the summed times.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import unicodedata
import difflib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "SampleImages"))
from cer import levenshtein, normalise  # noqa: E402


def cer(truth, text):
    a, b = normalise(truth), normalise(text)
    if not a:
        return float(len(b) > 0)
    return levenshtein(a, b)[0] / len(a)


def accented(c):
    return c in "œŒæÆ" or any(unicodedata.combining(x) for x in unicodedata.normalize("NFD", c))


def accents(truth, text):
    """Accented letters of the truth not matched in the reading (difflib's matching blocks)."""
    a, b = normalise(truth), normalise(text)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ok = set()
    for block in matcher.get_matching_blocks():
        ok.update(range(block.a, block.a + block.size))
    positions = [i for i, c in enumerate(a) if accented(c)]
    return sum(1 for i in positions if i not in ok), len(positions)


def timed(command, env):
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return time.monotonic() - start, done.returncode, done.stdout.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--set", required=True)
    parser.add_argument("--tessdata", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rapidocr")
    args = parser.parse_args()
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    folder = Path(args.set)
    rows = [line.rstrip("\n").split("\t") for line in open(folder / "index.tsv", encoding="utf-8")]
    snap = str(Path(args.bin) / "snap-poem")

    rapid = {}
    if args.rapidocr:
        paths = [str(folder / r[0]) for r in rows]
        out = subprocess.run([args.rapidocr, str(HERE / "rapidocr_read.py"), *paths], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="2"))
        for line in out.stdout.decode().splitlines():
            item = json.loads(line)
            rapid[Path(item["file"]).name] = item

    results = []
    for name, category, language, replace in rows:
        path = str(folder / name)
        truth = (folder / (Path(name).stem + ".txt")).read_text(encoding="utf-8")
        two = [snap, path, "--format", "json"] + (["--replace", f"{replace}=Alex"] if replace != "-" else [])
        one = [snap, path, "--format", "json", "--engines", "1"]
        cli = ["/usr/bin/tesseract", path, "-", "-l", "eng+fra", "--tessdata-dir", args.tessdata]
        commands = {"two": two, "one": one, "cli": cli}
        times = {k: [] for k in commands}
        outputs = {}
        for run in range(args.runs):
            order = list(commands) if run % 2 == 0 else list(reversed(commands))
            for key in order:
                seconds, status, stdout = timed(commands[key], env)
                if status not in (0, 124):
                    print(f"<!-- {key} exited {status} on {name} -->")
                times[key].append(seconds)
                outputs.setdefault(key, stdout)
        doc = json.loads(outputs["two"]) if outputs["two"].strip() else {}
        doc_one = json.loads(outputs["one"]) if outputs["one"].strip() else {}
        text_two = doc.get("originalText", "")
        text_one = doc_one.get("originalText", "")
        names = None
        if replace != "-":
            expected = truth.count(replace)
            final = doc.get("text", "")
            names = (min(expected, final.count("Alex")) if replace not in final else 0, expected)
        item = {
            "name": name, "category": category, "language": language,
            "cer": cer(truth, text_two), "cer_one": cer(truth, text_one), "cer_cli": cer(truth, outputs["cli"]),
            "t": statistics.median(times["two"]), "t_one": statistics.median(times["one"]),
            "t_cli": statistics.median(times["cli"]),
            "acc": accents(truth, text_two), "acc_cli": accents(truth, outputs["cli"]),
            "names": names, "doc": doc,
        }
        if name in rapid:
            item["cer_rapid"] = cer(truth, rapid[name]["text"])
            item["t_rapid"] = rapid[name]["seconds"]
            item["acc_rapid"] = accents(truth, rapid[name]["text"])
        results.append(item)
        print(f"  {name}: done", file=sys.stderr, flush=True)

    have_rapid = bool(rapid)

    def pct(v):
        return f"{100 * v:.2f} %"

    print("| image | category | snap-poem CER | ÷ CLI time | CLI CER | RapidOCR CER | snap-poem s | 1 engine s | CLI s | RapidOCR s (warm) | what was done |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in results:
        doc = r["doc"]
        steps = []
        pre = doc.get("image", {}).get("preprocessing", {}) or {}
        reading = doc.get("recognition", {}).get("reading") or {}
        if pre.get("rotation"):
            steps.append(f"turned {pre['rotation']}°")
        if pre.get("keystone"):
            steps.append(f"keystone (edges {pre['keystone']['edgeRatio']:.2f})")
        curv = pre.get("curvature") or {}
        if curv.get("applied"):
            steps.append(f"dewarped (curvature {curv.get('minimumCurvature')}..{curv.get('maximumCurvature')})")
        if reading.get("language"):
            steps.append(f"language {reading['language']}" + (f", {reading.get('frenchLines', 0)} lines fra" if reading.get("frenchLines") else ""))
        scale = pre.get("scaleFactor")
        if scale and abs(scale - 1) > 0.01:
            steps.append(f"scale ×{scale:.2f}")
        rapid_cer = pct(r["cer_rapid"]) if "cer_rapid" in r else "–"
        rapid_time = f"{r['t_rapid']:.2f}" if "t_rapid" in r else "–"
        print(f"| {r['name']} | {r['category']} | {pct(r['cer'])} | {r['t'] / r['t_cli']:.2f} | {pct(r['cer_cli'])} | "
              f"{rapid_cer} | {r['t']:.2f} | {r['t_one']:.2f} | {r['t_cli']:.2f} | {rapid_time} |", end="")
        print(f" {', '.join(steps) or '–'} |")

    print()
    print("| category | images | snap-poem CER (mean / worst) | ÷ CLI time | tesseract CLI CER | RapidOCR CER | snap-poem s | CLI s | RapidOCR s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    categories = []
    for r in results:
        if r["category"] not in categories:
            categories.append(r["category"])

    def line(label, group):
        mean = statistics.mean
        t = sum(r["t"] for r in group)
        tc = sum(r["t_cli"] for r in group)
        rc = f"{pct(mean(r['cer_rapid'] for r in group))}" if have_rapid else "–"
        rt = f"{sum(r['t_rapid'] for r in group):.1f}" if have_rapid else "–"
        print(f"| {label} | {len(group)} | {pct(mean(r['cer'] for r in group))} / {pct(max(r['cer'] for r in group))} | "
              f"{t / tc:.2f} | {pct(mean(r['cer_cli'] for r in group))} | {rc} | {t:.1f} | {tc:.1f} | {rt} |")

    for category in categories:
        line(category, [r for r in results if r["category"] == category])
    line("**all**", results)
    print()
    french = [r for r in results if r["language"] == "fr"]
    if french:
        wrong = sum(r["acc"][0] for r in french)
        total = sum(r["acc"][1] for r in french)
        wrong_cli = sum(r["acc_cli"][0] for r in french)
        text = f"- Accented letters wrong over the {len(french)} French images: snap-poem {wrong} of {total} ({100 * wrong / max(1, total):.1f} %), tesseract CLI {wrong_cli} ({100 * wrong_cli / max(1, total):.1f} %)"
        if have_rapid:
            wrong_rapid = sum(r["acc_rapid"][0] for r in french)
            text += f", RapidOCR {wrong_rapid} ({100 * wrong_rapid / max(1, total):.1f} %)"
        print(text + ".")
    named = [r for r in results if r["names"]]
    if named:
        got = sum(r["names"][0] for r in named)
        expected = sum(r["names"][1] for r in named)
        print(f"- Names replaced (`--replace NAME=Alex`): {got} of {expected}, over {len(named)} images.")
    diff = [abs(r["cer"] - r["cer_one"]) for r in results]
    mean_two = statistics.mean(r["cer"] for r in results)
    mean_one = statistics.mean(r["cer_one"] for r in results)
    print(f"- Two engines against one: mean CER {pct(mean_two)} against {pct(mean_one)} (difference {abs(mean_two - mean_one):.4f}); "
          f"largest difference on one image {max(diff):.4f}; identical text on {sum(1 for r in results if r['cer'] == r['cer_one'])} of {len(results)} images.")
    t = sum(r["t"] for r in results)
    t1 = sum(r["t_one"] for r in results)
    tc = sum(r["t_cli"] for r in results)
    print(f"- One process per image, summed over the {len(results)} images: snap-poem {t:.1f} s, with one engine {t1:.1f} s, "
          f"tesseract CLI {tc:.1f} s: **{t / tc:.2f}×** the CLI's wall time ({t1 / tc:.2f}× with one engine).")
    stages = {"decode": 0.0, "preprocess": 0.0, "recognize": 0.0, "coverageCheck": 0.0}
    for r in results:
        timings = r["doc"].get("timings", {})
        for key in stages:
            stages[key] += timings.get(key + "Seconds", 0)
    inside = sum(stages.values())
    print(f"- Where snap-poem's time goes (its own JSON timings, summed over the set, {inside:.1f} s; the rest of the "
          f"{t:.1f} s is process start, model loading and output): "
          + ", ".join(f"{k} {v:.1f} s ({100 * v / max(inside, 1e-9):.0f} %)" for k, v in stages.items()) + ".")
    slower = [r["name"] for r in results if r["t"] > r["t_cli"]]
    print(f"- Images where snap-poem took longer than the CLI: {len(slower)} ({', '.join(slower) or 'none'}).")


if __name__ == "__main__":
    main()
