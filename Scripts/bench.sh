#!/usr/bin/env bash
# The benchmark behind BENCHMARKS.md. Run through `make bench` (which builds in release mode).
# Prints Markdown to stdout (make bench also keeps a copy in bench-results/latest.md).
# RUNS (default 5) sets the repetitions; MEMORY_IMAGES (default 300) the length of the
# memory run. About 12 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)"
runs="${RUNS:-5}"
export OMP_THREAD_LIMIT=1   # for the tesseract CLI; snap-poem limits OpenMP itself

echo "# snap-poem benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(getconf _NPROCESSORS_ONLN) cores"   # not nproc: it obeys OMP_THREAD_LIMIT
echo "snap-poem $("$bin/snap-poem" --version | cut -d' ' -f2-)"
echo
echo "## Stages (median of $runs runs, one reused engine)"
echo
"$bin/snap-poem-bench" stages --runs "$runs" SampleImages/Lenore.png SampleImages/photo-phone-size.jpg
echo
echo "## snap-poem vs tesseract CLI, one process per image (median of $runs interleaved runs)"
echo
"$bin/snap-poem-bench" versus --runs "$runs" SampleImages/Lenore.png SampleImages/photo-clean.png
echo
echo "## Engine start, reused vs fresh engine (median of $runs runs)"
echo
"$bin/snap-poem-bench" engine --runs "$runs" SampleImages/Lenore.png SampleImages/formats/stanza-rgb8.png
echo
echo "## Time limit: return time vs limit, unscaled images ($runs runs each)"
echo
"$bin/snap-poem-bench" timeout --runs "$runs" SampleImages/Lenore.png SampleImages/photo-phone-size.jpg
echo
echo "## Resident memory over ${MEMORY_IMAGES:-300} scans with one scanner"
echo
"$bin/snap-poem-bench" memory --runs "${MEMORY_IMAGES:-300}" SampleImages/formats/stanza-rgb8.png \
  SampleImages/formats/stanza-gray.jpg SampleImages/orientation/orientation-6.jpg SampleImages/photo-clean.png
echo
echo "## Hardening: replacement scaling, GIF headers, memory checks (median of $runs runs)"
echo
"$bin/snap-poem-bench" hardening --runs "$runs"
echo
echo "## Image pipeline: CER per category, plain tesseract vs the tutorial's pipeline vs snap-poem (one run)"
echo
"$bin/snap-poem-bench" quality
