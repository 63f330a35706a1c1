#!/usr/bin/env bash
# The calibration of --max-marks (BENCHMARKS.md, "A bound on layout analysis"): for honest
# dense prose and for pages of scattered specks, the marks snap-poem counts, the time
# Tesseract then spends when the page is let through (--max-marks none), and how soon the
# default limit refuses it. Speck pages find no line of text, so their recognition time is
# Tesseract's layout analysis, the part no time limit can stop; --max-dimension none hands
# the page over at its own size, and --dpi 70 or 2400 changes Tesseract's sense of a mark's
# size, as a hostile upload may ask. Part of make bench (about 5 minutes); prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)/snap-poem"
pages=.build/mark-pages
/usr/bin/python3 Scripts/benchset/make_mark_pages.py "$pages"

seconds() {  # the JSON timing $2 of reading $1 with the bound lifted, at its own size; $3: more options
  "$bin" "$1" --max-marks none --max-dimension none --format json ${3:-} 2>/dev/null |
    /usr/bin/python3 -c "import json, sys; print('%.2f' % json.load(sys.stdin)['timings']['$2'])"
}

echo "| page | marks | recognition (s), bound lifted | at --dpi 70 | at --dpi 2400 | whole run (s), bound lifted | refused at the default limit after (s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in prose-10pt-2-columns prose-8pt-3-columns prose-7pt-3-columns specks-5000 specks-10000 specks-20000; do
  page="$pages/$name.png"
  marks=$({ "$bin" "$page" --max-marks 1 2>&1 >/dev/null || true; } | grep -oP 'has \K[0-9]+(?= separate marks)' || echo "?")
  start=$(date +%s.%N)
  if "$bin" "$page" >/dev/null 2>&1; then refused="read"; else
    refused=$(printf '%.2f' "$(echo "$(date +%s.%N) - $start" | bc)"); fi
  echo "| $(basename "$page") | $marks | $(seconds "$page" recognizeSeconds) | $(seconds "$page" recognizeSeconds "--dpi 70") |" \
    "$(seconds "$page" recognizeSeconds "--dpi 2400") | $(seconds "$page" totalSeconds) | $refused |"
done
