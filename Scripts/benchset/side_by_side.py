#!/usr/bin/python3
"""Two builds of snap-poem and the tesseract CLI side by side, one process per image.

    side_by_side.py --old DIR --new DIR [--runs N] [--set DIR] [IMAGE ...] [-- SNAP-POEM ARGS]

DIR is a build's bin folder (`swift build -c release --show-bin-path`, for instance of a
second git worktree checked out at the older commit). The three commands alternate image by
image and round by round (the order reversed every other round), so that the machine's
noise, which changes by a quarter from hour to hour here, hits all three alike; the table
gives each image's median and the sums, and the ratios within this one run are the figures
to quote. The default images are ten of the held-out set (Scripts/benchset/make_benchset.py),
one or two of every kind.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_IMAGES = [
    "clean-raven.png", "photo-shadow-ozymandias.jpg", "fr-clean-lac.png", "fr-photo-dormeur.jpg", "book-raven.jpg",
    "book-fr-lac.jpg", "scan-magazine-veil.png", "turned-180-sonnet.jpg", "lowres-beauty.jpg", "phone-annabel.jpg",
]


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--set", default=".build/benchset")
    parser.add_argument("--tessdata", default="tessdata")
    parser.add_argument("images", nargs="*")
    args = parser.parse_args(argv)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    images = args.images or DEFAULT_IMAGES
    commands = {
        "tesseract": lambda path: ["tesseract", path, "-", "-l", "eng+fra", "--tessdata-dir", args.tessdata],
        "old": lambda path: [str(Path(args.old) / "snap-poem"), path] + extra,
        "new": lambda path: [str(Path(args.new) / "snap-poem"), path] + extra,
    }
    times = {name: {image: [] for image in images} for name in commands}
    for run in range(args.runs):
        for image in images:
            path = str(Path(args.set) / image)
            order = list(commands) if run % 2 == 0 else list(reversed(commands))
            for name in order:
                start = time.monotonic()
                done = subprocess.run(commands[name](path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                times[name][image].append(time.monotonic() - start)
                if done.returncode != 0:
                    print(f"<!-- {name} exited {done.returncode} on {image} -->")
    print("| image | " + " | ".join(f"{name} s" for name in commands) + " |")
    print("| --- |" + " ---: |" * len(commands))
    sums = {name: 0.0 for name in commands}
    for image in images:
        medians = {name: statistics.median(times[name][image]) for name in commands}
        for name in commands:
            sums[name] += medians[name]
        print(f"| {image} | " + " | ".join(f"{medians[name]:.2f}" for name in commands) + " |")
    print("| **sum** | " + " | ".join(f"{sums[name]:.2f}" for name in commands) + " |")
    print()
    print(f"- old ÷ tesseract: {sums['old'] / sums['tesseract']:.2f}; new ÷ tesseract: {sums['new'] / sums['tesseract']:.2f}; "
          f"new ÷ old: {sums['new'] / sums['old']:.2f} (medians of {args.runs} rounds, summed over {len(images)} images).")


if __name__ == "__main__":
    main()
