#!/usr/bin/env bash
# Plain-Tesseract character error rate of every sample image that has a
# ground-truth .txt beside it (same basename; formats/* share formats/stanza.txt).
#   bash SampleImages/measure.sh            # all
#   bash SampleImages/measure.sh photo-*    # some (paths relative to SampleImages)
# Needs tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-fra and python3.
set -euo pipefail
cd "$(dirname "$0")"
export OMP_THREAD_LIMIT=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
  set -- Lenore.png chanson-d-automne.png blank.png photo-* formats/stanza* orientation/*.jpg
fi
for img in "$@"; do
  case "$img" in *.txt) continue ;; esac
  base=${img%.*}
  if [ -f "$base.txt" ]; then gt=$base.txt
  elif [[ $img == formats/stanza* ]]; then gt=formats/stanza.txt
  elif [[ $img == orientation/* ]]; then gt=orientation/orientation.txt
  else continue; fi
  if [[ $img == formats/stanza-multipage.tif ]]; then  # tesseract reads both pages
    cat formats/stanza.txt formats/stanza-multipage-page2.txt >"$tmp/gt.txt"; gt=$tmp/gt.txt
  fi
  start=$(date +%s.%N)
  if tesseract "$img" "$tmp/out" -l eng+fra >/dev/null 2>"$tmp/err"; then
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    printf '%-36s %s  (%.1f s)\n' "$img" "$(/usr/bin/python3 cer.py "$gt" "$tmp/out.txt" --fold)" "$secs"
  else
    printf '%-36s tesseract failed: %s\n' "$img" "$(head -c 200 "$tmp/err" | tr '\n' ' ')"
  fi
done
