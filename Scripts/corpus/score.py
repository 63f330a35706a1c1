#!/usr/bin/python3
"""snap-poem against the tesseract CLI (and RapidOCR) on the corpus of make_corpus.py.

    score.py --corpus DIR --part tune|holdout|all --snap-poem BIN [--rapidocr [PYTHON]]
             [--jobs 2] [--out results.json] [--only CLASS[,CLASS]] [--worst N]
             [--tessdata DIR] [--snap-args '--engines 1'] [--compare OLD.json]
    score.py --from results.json [--worst N] [--compare OLD.json] [--show ID,ID]
                                     (tables of a saved run; word-level differences of images)

Per image, in one run: `BIN IMAGE --format json --replace MUSE=Alex` (recognised and
personalised text from one process) and `tesseract IMAGE - -l eng+fra --psm 3`, both with
OMP_THREAD_LIMIT=1, one after the other (which goes first alternates), `--jobs` images at a
time (at most 2 on this 2-core machine); then, if asked, RapidOCR warm, one onnxruntime
thread per process, in `--jobs` processes. snap-poem gets `--engines 1` unless --snap-args
says otherwise, so that every process uses one core.

Scores: CER as SampleImages/cer.py normalises (NFC, whitespace runs as one space; the edit
distance by a bit-parallel algorithm, checked equal to cer.py's), bag-of-words F1 (lowercase
words, punctuation stripped: a high F1 with a high CER means reading order, not misreading),
accented letters of the truth not matched in the reading (bench_heldout.accents), every
occurrence of the muse's name replaced, exit codes and empty outputs, seconds per image.

Prints Markdown: a table per class (and per language, and in all), then the --worst N images
where snap-poem does worst relative to the CLI, with what its pipeline did. Writes JSON with
everything (texts included) to --out; --compare OLD.json prints per-image changes.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "SampleImages"))
sys.path.insert(0, str(ROOT / "Scripts" / "benchset"))
sys.path.insert(0, str(HERE))
from bench_heldout import accents  # noqa: E402
from cer import normalise  # noqa: E402
from texts import count_name  # noqa: E402

ENGINES = ("snap", "cli", "rapid")
LABEL = {"snap": "snap-poem", "cli": "tesseract CLI", "rapid": "RapidOCR"}
WORSE_BY = 0.01


# ---- scores ----------------------------------------------------------------------------------


def edit_distance(a, b):
    """Levenshtein distance on code points (Myers/Hyyrö bit-parallel; equal to cer.levenshtein)."""
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    peq = {}
    for i, c in enumerate(b):
        peq[c] = peq.get(c, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, score = full, 0, m
    for c in a:
        eq = peq.get(c, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def cer(truth, text):
    a, b = normalise(truth), normalise(text or "")
    if not a:
        return float(len(b) > 0)
    return edit_distance(a, b) / len(a)


def words(text):
    out = []
    for w in normalise(text or "").lower().split(" "):
        w = re.sub(r"^[^\w]+|[^\w]+$", "", w)
        if w:
            out.append(w)
    return Counter(out)


def bow_f1(truth, text):
    t, o = words(truth), words(text)
    common = sum((t & o).values())
    total = sum(t.values()) + sum(o.values())
    return 2 * common / total if total else 1.0


# ---- running ---------------------------------------------------------------------------------


def run(command, env, timeout):
    start = time.monotonic()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout)
        rc, out, err = done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    return time.monotonic() - start, rc, out, err[-600:]


def steps(doc):
    """What snap-poem's pipeline did, from its --format json report."""
    pre = (doc.get("image") or {}).get("preprocessing") or {}
    reading = (doc.get("recognition") or {}).get("reading") or {}
    cov = doc.get("coverage") or {}
    out = []
    orient = (doc.get("image") or {}).get("orientation") or {}
    if pre.get("rotation"):
        out.append(f"turned {pre['rotation']}°")
    if abs(pre.get("deskewAngle") or 0) >= 0.05:
        out.append(f"deskew {pre['deskewAngle']:.2f}°")
    if pre.get("keystone"):
        out.append(f"keystone (edges {pre['keystone'].get('edgeRatio')})")
    curv = pre.get("curvature") or {}
    if curv.get("applied"):
        out.append(f"dewarped ({curv.get('lineCount')} lines, curvature {curv.get('minimumCurvature')}..{curv.get('maximumCurvature')})")
    if pre.get("surroundCleared"):
        out.append(f"surround cleared {pre['surroundCleared']:.2f}")
    if pre.get("flattened"):
        out.append("flattened")
    if pre.get("inverted"):
        out.append("inverted")
    scale = pre.get("scaleFactor")
    if scale and abs(scale - 1) > 0.01:
        out.append(f"scale ×{scale:.2f}")
    if reading.get("language"):
        out.append(f"lang {reading['language']}" + (f" ({reading['frenchLines']} fra lines)" if reading.get("frenchLines") else ""))
    for key in ("enlargedRereads", "lineLanguageRereads"):
        if reading.get(key):
            out.append(f"{key} {reading[key]}")
    if cov.get("rereadRegions"):
        out.append(f"coverage rereads {len(cov['rereadRegions'])}")
    if cov.get("unreadRegions"):
        out.append(f"unread regions {len(cov['unreadRegions'])}")
    for note in pre.get("notes") or []:
        out.append(str(note)[:80])
    if orient.get("applied"):
        out.append(f"EXIF {orient.get('name')}")
    return out


def slim_report(doc):
    keep = {"image": doc.get("image"), "coverage": doc.get("coverage"), "timings": doc.get("timings"),
            "recognition": {k: v for k, v in (doc.get("recognition") or {}).items() if k != "lines"},
            "replacements": doc.get("replacements")}
    return keep


def score_one(record, folder, args, env, index):
    path = str(folder / record["name"])
    truth = (folder / f"{record['id']}.txt").read_text(encoding="utf-8")
    muse = record.get("muse")
    snap = [args.snap_poem, path, "--format", "json", "--tessdata", args.tessdata] + args.snap_args.split()
    if muse:
        snap += ["--replace", f"{muse}=Alex"]
    cli = ["tesseract", path, "-", "-l", "eng+fra", "--psm", "3", "--tessdata-dir", args.tessdata]
    order = [("snap", snap), ("cli", cli)] if index % 2 == 0 else [("cli", cli), ("snap", snap)]
    res = {"id": record["id"], "name": record["name"], "class": record["class"], "part": record["part"],
           "language": record["language"], "muse": muse, "muse_count": record.get("muse_count", 0),
           "conditions": record.get("conditions", []), "features": record.get("features", []),
           "style": record.get("style"), "x_height": record.get("x_height"),
           "size": [record.get("width"), record.get("height")]}
    for key, command in order:
        seconds, rc, out, err = run(command, env, args.timeout)
        res[key] = {"seconds": round(seconds, 3), "rc": rc, "stderr": err.strip()[-300:]}
        if key == "snap":
            try:
                doc = json.loads(out) if out.strip() else {}
            except json.JSONDecodeError:
                doc = {}
                res[key]["stderr"] += " [output is not JSON]"
            res[key]["text"] = doc.get("originalText", "")
            res[key]["personalised"] = doc.get("text", "")
            res[key]["steps"] = steps(doc)
            res[key]["report"] = slim_report(doc)
        else:
            res[key]["text"] = out
    finish(res, truth)
    return res


def finish(res, truth):
    """Scores of every engine present in `res` against the truth."""
    for key in ENGINES:
        if key not in res:
            continue
        e = res[key]
        text = e.get("text", "")
        e["cer"] = round(cer(truth, text), 5)
        e["bow_f1"] = round(bow_f1(truth, text), 4)
        e["accents"] = list(accents(truth, text))
        e["empty"] = not text.strip()
    muse = res.get("muse")
    if muse and "snap" in res:
        e = res["snap"]
        final, original = e.get("personalised", ""), e.get("text", "")
        alex = count_name(final, "Alex") - count_name(original, "Alex")
        left = count_name(final, muse)
        expected = res["muse_count"]
        e["names"] = [min(expected, max(0, alex)), expected, left]
        e["all_replaced"] = left == 0 and alex >= expected


def rapid_phase(results, folder, args):
    python = args.rapidocr
    names = [r["name"] for r in results]
    chunks = [names[i::args.jobs] for i in range(args.jobs)]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_THREAD_LIMIT="1")
    procs = [subprocess.Popen([python, str(HERE / "rapidocr_worker.py"), *[str(folder / n) for n in chunk]],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env) for chunk in chunks if chunk]
    by_name = {}
    for p in procs:
        out, _ = p.communicate()
        for line in out.decode("utf-8", "replace").splitlines():
            item = json.loads(line)
            by_name[Path(item["file"]).name] = item
    for r in results:
        item = by_name.get(r["name"])
        if item is None:
            r["rapid"] = {"text": "", "seconds": None, "rc": "missing"}
        else:
            r["rapid"] = {"text": item["text"], "seconds": round(item["seconds"], 3), "rc": 0 if not item.get("error") else item["error"]}
        truth = (folder / f"{r['id']}.txt").read_text(encoding="utf-8")
        finish(r, truth)


# ---- tables ----------------------------------------------------------------------------------


def pct(v):
    return "–" if v is None else f"{100 * v:.2f}"


def cer_cell(group, key):
    vals = [r[key]["cer"] for r in group if key in r]
    if not vals:
        return "–"
    return f"{pct(statistics.mean(vals))} / {pct(statistics.median(vals))} / {pct(max(vals))}"


def acc_cell(group, key):
    pairs = [r[key]["accents"] for r in group if key in r]
    total = sum(p[1] for p in pairs)
    return "–" if not pairs or not total else f"{sum(p[0] for p in pairs)}/{total}"


def table(results, label="class"):
    have_rapid = any("rapid" in r for r in results)
    groups = {}
    for r in results:
        groups.setdefault(r["class"], []).append(r)
    rows = sorted(groups.items())
    rows.append(("French (all classes)", [r for r in results if r["language"] == "fr"]))
    rows.append(("English (all classes)", [r for r in results if r["language"] == "en"]))
    rows.append(("**all**", results))
    print(f"| {label} | images | snap-poem CER % mean / median / worst | CLI CER % | RapidOCR CER % | BoW F1 snap / CLI{' / Rapid' if have_rapid else ''}"
          f" | snap worse than CLI by > {WORSE_BY} | accents wrong snap / CLI{' / Rapid' if have_rapid else ''}"
          f" | names replaced | failed (exit≠0 / empty) | snap s / image | ÷ CLI | slowest (snap s) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, group in rows:
        if not group:
            continue
        worse = sum(1 for r in group if r["snap"]["cer"] - r["cli"]["cer"] > WORSE_BY)
        f1 = " / ".join(f"{statistics.mean(r[k]['bow_f1'] for r in group):.3f}" for k in (ENGINES if have_rapid else ENGINES[:2]))
        acc = " / ".join(acc_cell(group, k) for k in (ENGINES if have_rapid else ENGINES[:2]))
        named = [r["snap"]["names"] for r in group if r["snap"].get("names")]
        names = f"{sum(n[0] for n in named)}/{sum(n[1] for n in named)}" if named else "–"
        failed = f"{sum(1 for r in group if r['snap']['rc'] != 0)} / {sum(1 for r in group if r['snap']['empty'])}"
        ts = statistics.mean(r["snap"]["seconds"] for r in group)
        tc = statistics.mean(r["cli"]["seconds"] for r in group)
        slow = max(group, key=lambda r: r["snap"]["seconds"])
        print(f"| {name} | {len(group)} | {cer_cell(group, 'snap')} | {cer_cell(group, 'cli')} | {cer_cell(group, 'rapid')} | {f1}"
              f" | {worse} | {acc} | {names} | {failed} | {ts:.2f} | {ts / tc:.2f} | {slow['id']} ({slow['snap']['seconds']:.1f}) |")


def worst(results, n):
    ranked = sorted(results, key=lambda r: r["snap"]["cer"] - r["cli"]["cer"], reverse=True)[:n]
    print(f"| image | class | conditions / features | snap-poem CER % | CLI CER % | RapidOCR CER % | BoW F1 snap / CLI | exit | what snap-poem did |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for r in ranked:
        what = "+".join(r["conditions"] + r["features"]) or r["style"]
        rapid = pct(r["rapid"]["cer"]) if "rapid" in r else "–"
        print(f"| {r['name']} | {r['class']} | {what} ({r['language']}, x-height {r['x_height']}) | {pct(r['snap']['cer'])} | "
              f"{pct(r['cli']['cer'])} | {rapid} | {r['snap']['bow_f1']:.3f} / {r['cli']['bow_f1']:.3f} | {r['snap']['rc']} | "
              f"{', '.join(r['snap'].get('steps') or []) or '–'} |")


def show(results, ids, corpus):
    """Word-level differences from the truth for each engine, and snap-poem's steps."""
    import difflib

    for r in results:
        if r["id"] not in ids:
            continue
        truth = (Path(corpus) / f"{r['id']}.txt").read_text(encoding="utf-8")
        print(f"\n#### {r['name']} ({r['class']}, {r['language']}; {'+'.join(r['conditions'] + r['features']) or r['style']})\n")
        print(f"snap-poem steps: {', '.join(r['snap'].get('steps') or []) or '–'}; exit {r['snap']['rc']}")
        for key in ENGINES:
            if key not in r:
                continue
            a, b = normalise(truth).split(" "), normalise(r[key].get("text", "")).split(" ")
            ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
            print(f"- {LABEL[key]}: CER {pct(r[key]['cer'])} %, BoW F1 {r[key]['bow_f1']:.3f}, {len(ops)} differences:")
            for tag, i1, i2, j1, j2 in ops[:25]:
                print(f"    {tag}: {' '.join(a[i1:i2])!r} -> {' '.join(b[j1:j2])!r}")
            if len(ops) > 25:
                print(f"    … {len(ops) - 25} more")


def compare(old_path, results):
    old = {r["id"]: r for r in json.loads(Path(old_path).read_text(encoding="utf-8"))["results"]}
    changes = []
    for r in results:
        o = old.get(r["id"])
        if o:
            changes.append((r["snap"]["cer"] - o["snap"]["cer"], r, o))
    worse = [c for c in changes if c[0] > 0.001]
    better = [c for c in changes if c[0] < -0.001]
    print(f"Compared with {old_path}: {len(changes)} images in both; snap-poem CER worse by > 0.1 % on {len(worse)}, "
          f"better on {len(better)}, within 0.1 % on {len(changes) - len(worse) - len(better)}.")
    if changes:
        t_new = sum(c[1]["snap"]["seconds"] for c in changes) / max(1e-9, sum(c[1]["cli"]["seconds"] for c in changes))
        t_old = sum(c[2]["snap"]["seconds"] for c in changes) / max(1e-9, sum(c[2]["cli"]["seconds"] for c in changes))
        print(f"Time ÷ CLI (each run against its own CLI times): {t_old:.2f} before, {t_new:.2f} now.")
    print()
    print("| image | class | snap-poem CER % before → now | change | CLI CER % before → now | text changed |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for delta, r, o in sorted(worse, key=lambda c: -c[0]) + sorted(better, key=lambda c: c[0]):
        print(f"| {r['name']} | {r['class']} | {pct(o['snap']['cer'])} → {pct(r['snap']['cer'])} | {100 * delta:+.2f} | "
              f"{pct(o['cli']['cer'])} → {pct(r['cli']['cer'])} | {'yes' if o['snap'].get('text') != r['snap'].get('text') else 'no'} |")
    same_text_changed = [c for c in changes if abs(c[0]) <= 0.001 and c[1]["snap"].get("text") != c[2]["snap"].get("text")]
    if same_text_changed:
        print(f"\nText changed without a CER change beyond 0.1 % on {len(same_text_changed)} images: "
              + ", ".join(c[1]["id"] for c in same_text_changed[:30]))


# ---- main ---------------------------------------------------------------------------------------


def git_head():
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus")
    p.add_argument("--part", choices=["tune", "holdout", "all"], default="tune")
    p.add_argument("--snap-poem")
    p.add_argument("--snap-args", default="--engines 1")
    p.add_argument("--tessdata", default=str(ROOT / "tessdata"))
    p.add_argument("--rapidocr", nargs="?", const=str(ROOT / ".build" / "rapidocr-venv" / "bin" / "python"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out")
    p.add_argument("--only")
    p.add_argument("--limit", type=int)
    p.add_argument("--worst", type=int, default=10)
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--compare")
    p.add_argument("--from", dest="from_json")
    p.add_argument("--show", help="comma-separated ids: word-level differences per engine (needs --corpus)")
    args = p.parse_args()
    if args.jobs > 2:
        print("note: this machine has 2 cores shared with others; --jobs above 2 distorts the timings", file=sys.stderr)

    if args.from_json:
        saved = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
        results = saved["results"]
        if args.only:
            results = [r for r in results if r["class"] in args.only.split(",")]
        meta = saved["meta"]
        if args.rapidocr:  # RapidOCR again on a saved run (its other engines kept)
            t = time.monotonic()
            rapid_phase(results, Path(args.corpus or meta["corpus"]), args)
            meta["seconds_rapid"] = round(time.monotonic() - t, 1)
            if args.out:
                Path(args.out).write_text(json.dumps({"meta": meta, "results": results}, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        if not (args.corpus and args.snap_poem):
            p.error("--corpus and --snap-poem are required (or --from results.json)")
        folder = Path(args.corpus)
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        chosen = [r for r in index if args.part == "all" or r["part"] == args.part]
        if args.only:
            chosen = [r for r in chosen if r["class"] in args.only.split(",")]
        if args.limit:
            chosen = chosen[: args.limit]
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        version = subprocess.run([args.snap_poem, "--version"], capture_output=True, text=True).stdout.strip()
        meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "corpus": str(folder), "part": args.part,
                "snap_poem": args.snap_poem, "snap_version": version, "snap_args": args.snap_args, "commit": git_head(),
                "tessdata": args.tessdata, "jobs": args.jobs, "images": len(chosen),
                "load_start": open("/proc/loadavg").read().split()[:3]}
        start = time.monotonic()
        done = 0
        results = []
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(score_one, r, folder, args, env, i) for i, r in enumerate(chosen)]
            for f in futures:
                results.append(f.result())
                done += 1
                if done % 10 == 0 or done == len(chosen):
                    print(f"  {done}/{len(chosen)} images scored ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)
        meta["seconds_snap_cli"] = round(time.monotonic() - start, 1)
        if args.rapidocr:
            t = time.monotonic()
            rapid_phase(results, folder, args)
            meta["seconds_rapid"] = round(time.monotonic() - t, 1)
        meta["load_end"] = open("/proc/loadavg").read().split()[:3]
        if args.out:
            Path(args.out).write_text(json.dumps({"meta": meta, "results": results}, ensure_ascii=False, indent=1), encoding="utf-8")

    print(f"## {meta['part']} part: {len(results)} images, snap-poem ({meta.get('snap_args')}) against the tesseract CLI"
          + (" and RapidOCR" if any("rapid" in r for r in results) else ""))
    print()
    print(f"{meta.get('snap_version', '')}; commit {meta.get('commit')}; {meta.get('date')}; {meta.get('jobs')} images at a time; "
          f"load {' '.join(meta.get('load_start', []))} at the start, {' '.join(meta.get('load_end', []))} at the end. "
          "CER in %; times are per image in this run (process start included), to be read as ratios.")
    print()
    table(results)
    have_rapid = [r for r in results if "rapid" in r and r["rapid"].get("seconds") is not None]
    if have_rapid:
        print(f"\nRapidOCR (warm, one thread, {meta.get('jobs')} processes, after the other two): "
              f"{statistics.mean(r['rapid']['seconds'] for r in have_rapid):.2f} s per image.")
    if args.worst:
        print(f"\n### The {args.worst} images where snap-poem does worst relative to the CLI\n")
        worst(results, args.worst)
    if args.compare:
        print()
        compare(args.compare, results)
    if args.show:
        show(results, set(args.show.split(",")), args.corpus or meta["corpus"])


if __name__ == "__main__":
    main()
