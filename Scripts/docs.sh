#!/usr/bin/env bash
# `make docs`: the SnapPoem library's documentation, built with the toolchain's own tools (no
# SwiftPM plugin, which could not be fetched here):
#   1. swift build             compiles the SnapPoem module;
#   2. swift-symbolgraph-extract   reads its public API and doc comments from the module;
#   3. docc convert            joins them with the articles of Sources/SnapPoem/SnapPoem.docc.
# Output: .build/docs/SnapPoem.doccarchive, a DocC archive that is also a static website (open
# it with Xcode, `docc preview`, or serve the folder with any web server; see README).
# Any DocC warning (an undocumented parameter, a broken ``link``) fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/docs
archive="$out/SnapPoem.doccarchive"
swift build --target SnapPoem
modules="$(swift build --show-bin-path)/Modules"
triple="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"

rm -rf "$out"
mkdir -p "$out/symbol-graphs"
# The C modules SnapPoem imports (CTesseract, CProcessControl, …) are found through their
# module maps and the C libraries' include folders, as SwiftPM passes them to the compiler.
c_flags=()
for modulemap in Sources/C*/module.modulemap Sources/C*/include/module.modulemap; do c_flags+=(-Xcc "-fmodule-map-file=$modulemap"); done
for flag in $(pkg-config --cflags-only-I tesseract lept); do c_flags+=(-Xcc "$flag"); done
swift-symbolgraph-extract \
  -module-name SnapPoem -target "$triple" \
  -I "$modules" "${c_flags[@]}" \
  -minimum-access-level public -skip-synthesized-members \
  -output-dir "$out/symbol-graphs"

# Not --experimental-transform-for-static-hosting-with-content: with this toolchain (6.3.1)
# docc crashes in FoundationXML's XMLNode.deinit on Linux while writing those pages.
docc convert Sources/SnapPoem/SnapPoem.docc \
  --additional-symbol-graph-dir "$out/symbol-graphs" \
  --fallback-display-name SnapPoem \
  --fallback-bundle-identifier org.snap-poem.SnapPoem \
  --transform-for-static-hosting \
  --warnings-as-errors \
  --output-path "$archive"

test -f "$archive/index.html" && test -f "$archive/data/documentation/snappoem.json" || {
  echo "docs: the archive lacks its landing page" >&2
  exit 1
}
pages=$(find "$archive/data/documentation" -name '*.json' | wc -l)
echo "docs: $pages pages in $archive"
echo "docs: browse with: python3 -m http.server --directory $archive 8000, then http://localhost:8000/documentation/snappoem/"
