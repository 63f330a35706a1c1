#!/usr/bin/env bash
# Profiles one snap-poem batch over the images given with perf (Debian's linux-perf, as
# root; make bench installs it): samples every process of the batch, the supervisor and its
# workers, and prints the share of CPU time per library and the top functions, as Markdown.
# PERF_OUT=FILE keeps the recording there (for perf report), instead of a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)"
command -v perf >/dev/null || { echo "profile-batch: perf is missing (make deps-bench)"; exit 0; }
work=$(mktemp -d /tmp/snap-poem-profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/images"
for image in "$@"; do
    name=$(echo "$image" | tr '/.' '--')
    cp "$image" "$work/images/$name.${image##*.}"
done
perf record -q -F 499 -g -o "${PERF_OUT:-$work/perf.data}" -- "$bin/snap-poem" "$work/images" --output-dir "$work/out" --jobs 2 -q || true
echo "\`perf record -F 499 -g -- snap-poem DIR --output-dir OUT --jobs 2\` over $# images; share of samples:"
echo
echo "| library | share |"
echo "| --- | ---: |"
perf report -i "${PERF_OUT:-$work/perf.data}" --no-children --sort dso --stdio -g none 2>/dev/null \
    | grep -E '^ +[0-9.]+%' | head -8 | awk '{print "| " $2 " | " $1 " |"}'
echo
echo "| function | share |"
echo "| --- | ---: |"
perf report -i "${PERF_OUT:-$work/perf.data}" --no-children --sort sym --stdio -g none 2>/dev/null \
    | grep -E '^ +[0-9.]+%' | head -12 | awk '{share=$1; $1=""; $2=""; sub(/^ +/, ""); print "| `" $0 "` | " share " |"}'
