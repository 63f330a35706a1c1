#!/usr/bin/env bash
# Records what a snap-poem executable makes of every sample image, in every format, so that
# two builds can be compared byte for byte (issue 19: outputs unchanged by the rebuild).
#
#   Scripts/sample-outputs.sh BIN OUT [--batches-only]
#                                          run BIN on SampleImages/, write everything into OUT
#   Scripts/sample-outputs.sh --compare A B   normalise two such folders and diff them
#
# For each image: every --format, --mailto, --format jsonl, --side-by-side, and one run with
# --annotate and --save-preprocessed, each with `-r Lenore=Alex --report`; standard output,
# standard error and the exit status of each run are kept. Then whole-folder batches: one
# --output-dir per format (--keep-extension, since the formats/ samples share names; outputs
# and manifest) and the three stream shapes (text, markdown, JSON Lines on standard output). --compare blanks what differs from run to run
# by design (e-mail Date, Message-ID and the boundary derived from it; JSON and manifest
# timings, the line reading's layoutMilliseconds; manifest times) and diffs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--compare" ]; then
  normalise() {
    local from=$1 to=$2
    rm -rf "$to"
    cp -a "$from" "$to"
    find "$to" -type f \( -name '*.eml' -o -name 'eml.out' \) -print0 | xargs -0 -r sed -i -E \
      -e 's/^Date: .*/Date: X/' -e 's/<[0-9a-f-]{36}@snap-poem.invalid>/<X@snap-poem.invalid>/' \
      -e 's/=_snap-poem_[0-9a-f]{16}/=_snap-poem_X/g'
    find "$to" -type f \( -name '*.json' -o -name '*.jsonl' -o -name 'json.out' -o -name 'jsonl.out' -o -name 'stream-json.out' \) \
      -print0 | xargs -0 -r python3 -c '
import json, sys
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    def clean(obj):
        if isinstance(obj, dict):
            for key in ("timings", "finishedAt", "layoutMilliseconds"):
                if key in obj:
                    obj[key] = "X"
            for value in obj.values():
                clean(value)
        elif isinstance(obj, list):
            for value in obj:
                clean(value)
        return obj
    try:
        text = json.dumps(clean(json.loads(data)), sort_keys=True, ensure_ascii=False) + "\n"
    except ValueError:
        lines = []
        for line in data.decode("utf-8", "replace").splitlines():
            try:
                lines.append(json.dumps(clean(json.loads(line)), sort_keys=True, ensure_ascii=False))
            except ValueError:
                lines.append(line)
        text = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(text)
'
    # With --output-dir, lines reach the manifest (and, before issue 19, standard error) in
    # the order the two workers finish: compared as sets of lines.
    # The hash of an e-mail draft follows its Date and Message-ID, that of a JSON document
    # its timings (the documents themselves are compared, normalised).
    for format in eml json; do
      [ -f "$to/batch-$format/manifest.jsonl" ] &&
        sed -i -E 's/"outputHash": "sha256:[0-9a-f]{64}"/"outputHash": "X"/' "$to/batch-$format/manifest.jsonl"
    done
    for file in "$to"/batch-*/manifest.jsonl "$to"/batch-*.err; do
      [ -f "$file" ] && LC_ALL=C sort -o "$file" "$file"
    done
  }
  normalise "$2" "$2.normalised"
  normalise "$3" "$3.normalised"
  diff -r "$2.normalised" "$3.normalised" && echo "identical: $2 and $3 (normalised)"
  exit $?
fi

bin=$(readlink -f "$1")
out=$(mkdir -p "$2" && readlink -f "$2")
images=$(find SampleImages -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.tif' -o -iname '*.webp' -o -iname '*.bmp' \
  -o -iname '*.gif' -o -iname '*.pnm' \) | sort)
export OMP_THREAD_LIMIT=1

run_one() {
  local bin=$1 out=$2 image=$3
  local folder="$out/single/$image"
  mkdir -p "$folder"
  local name
  for name in text markdown html json eml hocr tsv alto jsonl mailto side-by-side annotate; do
    local arguments=("$image" -r Lenore=Alex --report)
    case $name in
      mailto) arguments+=(--mailto --to alex@example.org) ;;
      side-by-side) arguments+=(--format html --side-by-side) ;;
      annotate) arguments+=(--annotate "$folder/annotated.png" --save-preprocessed "$folder/preprocessed.png") ;;
      *) arguments+=(--format "$name") ;;
    esac
    set +e
    "$bin" "${arguments[@]}" >"$folder/$name.out" 2>"$folder/$name.err"
    echo $? >"$folder/$name.code"
    set -e
    sed -i "s#$folder#FOLDER#g" "$folder/$name.err"
  done
}
export -f run_one
if [ "${3:-}" != "--batches-only" ]; then
  printf '%s\n' $images | xargs -P 2 -I{} bash -c 'run_one "$@"' _ "$bin" "$out" {}
fi

for format in text markdown html json eml hocr tsv alto; do
  set +e
  rm -rf "$out/batch-$format"
  "$bin" SampleImages --output-dir "$out/batch-$format" --format "$format" -r Lenore=Alex --jobs 2 --keep-extension \
    >"$out/batch-$format.out" 2>"$out/batch-$format.err"
  echo $? >"$out/batch-$format.code"
  set -e
  sed -i "s#$out#OUT#g" "$out/batch-$format.err"
done
for format in text markdown json; do
  set +e
  "$bin" SampleImages --format "$format" -r Lenore=Alex --jobs 2 >"$out/stream-$format.out" 2>"$out/stream-$format.err"
  echo $? >"$out/stream-$format.code"
  set -e
done
echo "recorded $(printf '%s\n' $images | wc -l) images into $out"
