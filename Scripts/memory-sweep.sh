#!/usr/bin/env bash
# Runs the release snap-poem under `ulimit -v` limits from 140 to 480 MB in 5 MB steps, on
# a page and a 12-megapixel photo, ROUNDS times (default 1; about 5 minutes a round on 2
# cores), and prints one line per run: image, round, limit MB, exit status, diagnostic
# lines (besides the codecs' own), stdout bytes, first diagnostic. The numbers behind
# "Memory limits" in BENCHMARKS.md and SECURITY.md. Then a summary: runs ended by a
# signal or with more than one diagnostic (there should be none), and the lowest limit
# each image was read at.
#
#   Scripts/memory-sweep.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
binary="$(swift build -c release --show-bin-path)/snap-poem"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq 1 "$rounds"); do
  for image in SampleImages/Lenore.png SampleImages/photo-phone-size.jpg; do
    for megabytes in $(seq 140 5 480); do
      status=0
      bash -c "ulimit -v $((megabytes * 1024)) && exec \"\$0\" \"\$1\"" "$binary" "$image" \
        >"$work/out" 2>"$work/err" || status=$?
      lines=$(grep -vc '^libpng\|^Corrupt JPEG\|^Premature end' "$work/err" || true)
      first=$(grep -v '^libpng' "$work/err" | head -1 | cut -c1-120 || true)
      echo "$(basename "$image") $round $megabytes $status $lines $(wc -c <"$work/out") $first"
    done
  done
done | tee "$work/sweep"
echo
echo "signals or several diagnostics: $(awk '$4 > 128 || ($5 > 1 && $4 != 0)' "$work/sweep" | wc -l)"
awk '$4 == 0 { if (!($1 in low) || $3 < low[$1]) low[$1] = $3 } END { for (i in low) print "read from", low[i], "MB:", i }' "$work/sweep"
