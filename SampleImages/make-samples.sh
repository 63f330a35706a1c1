#!/usr/bin/env bash
# Regenerates every sample image in SampleImages/ and its ground-truth .txt.
#
# Needs these Debian 12 packages (installed with apt-get when missing and run
# as root):
#   python3-pil        Pillow, draws and encodes almost everything
#   python3-numpy      the page curl of make_book_samples.py
#   imagemagick        /usr/bin/convert (IM6): 16-bit PNG, CMYK JPEG, checks
#   fonts-ebgaramond   EB Garamond 12 Regular      (SIL OFL 1.1)
#   fonts-liberation2  Liberation Serif Regular    (SIL OFL 1.1)
#   fonts-dejavu-core  DejaVu Sans                 (Bitstream Vera licence / public domain)
#   libheif-examples   heif-enc (x265, aom): the HEIC and AVIF samples (make_format_samples.py)
#   libimage-exiftool-perl  only for the EXIF check at the end (skipped if absent)
# Input: poems/lenore.txt (a copy of the shared lenore.txt) (Poe, "Lenore"); the Verlaine text is
# inside make_samples.py.  Seeded: re-runs give the same images.  ~15 s.
#
#   bash SampleImages/make-samples.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

packages=(python3-pil python3-numpy imagemagick fonts-ebgaramond fonts-liberation2 fonts-dejavu-core libheif-examples)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "missing Debian packages: ${missing[*]} (run as root or apt-get install them)" >&2
    exit 1
  fi
fi

CONVERT=/usr/bin/convert      # the real ImageMagick; /usr/local/bin/convert may be a wrapper
IDENTIFY=/usr/bin/identify

/usr/bin/python3 make_samples.py "$here"
# Issue 20's curl sweep and French renders (own seeds; uses Scripts/benchset's renderer).
/usr/bin/python3 make_book_samples.py "$here"
# Issue 43: HEIC and AVIF (heif-enc; turned and mirrored ones crafted) and a three-page TIFF.
/usr/bin/python3 make_format_samples.py "$here"

# ---- checks: fail loudly if an encoding or an EXIF tag is not what we claim
fail=0
check() {  # check FILE EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then echo "CHECK FAILED: $1: expected '$2', got '$3'" >&2; fail=1; fi
}
f=formats
check stanza-rgb16.png  "16-bit/color RGB" "$(file -b $f/stanza-rgb16.png | grep -o '16-bit/color RGB')"
check stanza-rgb8.png   "8-bit/color RGB,"  "$(file -b $f/stanza-rgb8.png | grep -o '8-bit/color RGB,')"
check stanza-gray.png   "8-bit grayscale"   "$(file -b $f/stanza-gray.png | grep -o '8-bit grayscale')"
check stanza-palette.png "colormap"         "$(file -b $f/stanza-palette.png | grep -o 'colormap')"
check stanza-alpha.png  "8-bit/color RGBA"  "$(file -b $f/stanza-alpha.png | grep -o '8-bit/color RGBA')"
check stanza-progressive.jpg "JPEG"         "$($IDENTIFY -format '%[interlace]' $f/stanza-progressive.jpg)"
check stanza-baseline.jpg "None"            "$($IDENTIFY -format '%[interlace]' $f/stanza-baseline.jpg)"
check stanza-gray.jpg   "Gray"              "$($IDENTIFY -format '%[colorspace]' $f/stanza-gray.jpg)"
check stanza-cmyk.jpg   "CMYK"              "$($IDENTIFY -format '%[colorspace]' $f/stanza-cmyk.jpg)"
check stanza-1bit.tif   "Group4 1"          "$($IDENTIFY -format '%C %z' $f/stanza-1bit.tif)"
check stanza-multipage.tif "2"              "$($IDENTIFY $f/stanza-multipage.tif | wc -l)"
check poems-3page.tif   "3"                 "$($IDENTIFY $f/poems-3page.tif | wc -l)"
check stanza.heic       "heic"              "$(heif-info $f/stanza.heic | sed -n 's/^main brand: //p')"
check stanza.avif       "avif"              "$(heif-info $f/stanza.avif | sed -n 's/^main brand: //p')"
check Lenore.heic       "1731x2622"         "$(heif-info $f/Lenore.heic | grep -o '[0-9]*x[0-9]*' | head -1)"
check stanza-alpha.heic "yes"               "$(heif-info $f/stanza-alpha.heic | sed -n 's/^ *alpha channel: \([a-z]*\).*/\1/p')"
check stanza.pnm        "P6"                "$(head -c 2 $f/stanza.pnm)"
check empty.png         "0"                 "$(stat -c %s $f/empty.png)"
check huge-header.png   "40000 x 40000"     "$(file -b huge-header.png | grep -o '40000 x 40000')"
check photo-phone-size.jpg "4032x3024"      "$($IDENTIFY -format '%wx%h' photo-phone-size.jpg)"
check photo-exif-rotated.jpg "6"            "$($IDENTIFY -format '%[EXIF:Orientation]' photo-exif-rotated.jpg)"
# every orientation-N.jpg carries tag N and, once auto-oriented, matches orientation-1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
$CONVERT orientation/orientation-1.jpg "$tmp/ref.png"
for n in 1 2 3 4 5 6 7 8; do
  img=orientation/orientation-$n.jpg
  check "$img tag" "$n" "$($IDENTIFY -format '%[EXIF:Orientation]' "$img")"
  if command -v exiftool >/dev/null; then
    check "$img exiftool" "$n" "$(exiftool -s -s -s -n -Orientation "$img")"
  fi
  $CONVERT "$img" -auto-orient "$tmp/$n.png"
  # mean absolute difference (0..1) against the upright original; JPEG noise only
  diff=$($CONVERT "$tmp/ref.png" "$tmp/$n.png" -compose difference -composite -colorspace gray -format '%[fx:mean<0.02?1:0]' info:)
  check "$img upright after -auto-orient" "1" "$diff"
done
for t in *.txt formats/*.txt orientation/*.txt; do   # ground truth: no trailing spaces, one final newline
  if grep -qE ' +$' "$t"; then echo "CHECK FAILED: trailing space in $t" >&2; fail=1; fi
  if [ -s "$t" ] && [ "$(tail -c 1 "$t" | od -An -c | tr -d ' ')" != '\n' ]; then echo "CHECK FAILED: $t" >&2; fail=1; fi
done
cmp -s Lenore.txt poems/lenore.txt || { echo "CHECK FAILED: Lenore.txt != lenore.txt" >&2; fail=1; }
[ $fail -eq 0 ] && echo "samples written and checked: $(du -sh . | cut -f1) in $here"
exit $fail
