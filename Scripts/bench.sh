#!/usr/bin/env bash
# The benchmark behind BENCHMARKS.md. Run through `make bench` (which builds in release mode).
# Prints Markdown tables to stdout; takes about three minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)"
runs="${RUNS:-5}"
export OMP_THREAD_LIMIT=1   # the tesseract CLI needs it; snap-poem limits OpenMP itself

echo "## Stages (median of $runs runs, one reused engine)"
echo
"$bin/snap-poem-bench" stages --runs "$runs" SampleImages/Lenore.png SampleImages/photo-phone-size.jpg
echo
echo "## snap-poem vs tesseract CLI, whole process per image (median of $runs interleaved runs)"
echo
"$bin/snap-poem-bench" versus --runs "$runs" SampleImages/Lenore.png SampleImages/photo-clean.png
echo
echo "## Image pipeline: CER per category, plain tesseract vs the tutorial's pipeline vs snap-poem (one run)"
echo
"$bin/snap-poem-bench" quality
