#!/usr/bin/env bash
# Builds snap-poem's libFuzzer targets (Fuzz/Targets/*.swift) against the library sources,
# with AddressSanitizer, and runs them.
#
#   Scripts/fuzz.sh --smoke [TARGET...]        replay each committed seed corpus once (make test)
#   Scripts/fuzz.sh --seconds N [TARGET...]    fuzz each target for N seconds, one after another
#   Scripts/fuzz.sh --build [TARGET...]        only build
#
# A target is one Swift file defining LLVMFuzzerTestOneInput; its first line names the
# modules it needs ("// fuzz-modules: SnapPoem SnapPoemCLI"), which are compiled from
# Sources/ with coverage and ASan into .build/fuzz. Seeds: Fuzz/Corpus/TARGET (committed).
# New inputs found while fuzzing go to .build/fuzz/corpus/TARGET, never into the seeds;
# crashes, leaks and timeouts to .build/fuzz/findings/. Each run's libFuzzer log is kept in
# .build/fuzz/TARGET.log and its last line (executions, rate) is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=smoke seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) mode=smoke ;;
    --build) mode=build ;;
    --seconds) mode=fuzz seconds=$2; shift ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ ${#targets[@]} -eq 0 ]; then
  for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

# The smoke replays each seed once, so it needs ASan's checks, not speed: it is compiled
# without optimisation, in a folder of its own (2026-12-07: the library took 234 s of one core
# with -O, the longest stretch of make test that kept the other core idle).
# (Line tables only: with -Onone and full debug info the driver adds a job that wraps the
# module into the same object, and stops.)
out=.build/fuzz optimisation=(-O -g)
[ "$mode" = smoke ] && out=.build/fuzz-smoke optimisation=(-Onone -gline-tables-only)
mkdir -p "$out/modules" "$out/findings" "$out/corpus"
sanitize=(-sanitize=fuzzer,address)
# Every system-library module map (CTesseract, CProcessControl, CMicroHTTPD, ...).
system_modules=()
for map in Sources/C*/module.modulemap; do system_modules+=(-I "$(dirname "$map")"); done
# Leptonica's and Tesseract's flags as pkg-config gives them (the library is liblept on
# Debian 12, libleptonica on Debian 13).
read -r -a lept_cflags <<<"$(pkg-config --cflags lept)"
# libheif is not linked: CHeif opens it with dlopen the first time a HEIF file is met.
read -r -a c_libraries <<<"$(pkg-config --libs tesseract lept libpng libjpeg libmicrohttpd)"
swift_flags=(-parse-as-library "${optimisation[@]}" -swift-version 6 -enable-testing -package-name snap_poem "${sanitize[@]}"
  "${system_modules[@]}" -I "$out/modules")
for flag in "${lept_cflags[@]}"; do swift_flags+=(-Xcc "$flag"); done
c_flags=(-O1 -g -fsanitize=fuzzer-no-link,address "${lept_cflags[@]}")

# CTesseractShim, CProcessOverrides, CProcessGuard and CHeif: C/C++ objects and module maps
# the Swift modules import. The overrides are linked into every target, as into the executable; each
# target installs them (as snap-poem's main does) or leaves them handing calls on.
build_c_targets() {
  if [ -f "$out/modules/c.stamp" ] &&
    [ -z "$(find Sources/CTesseractShim Sources/CProcessOverrides Sources/CProcessGuard Sources/CHeif -type f -newer "$out/modules/c.stamp" | head -1)" ]; then
    return
  fi
  # Every C++ file of the shim and the overrides: one object each, all linked.
  rm -f "$out"/modules/CTesseractShim-*.o "$out"/modules/CProcessOverrides-*.o
  for target in CTesseractShim CProcessOverrides; do
    for source in Sources/$target/*.cpp; do
      local object="$out/modules/$target-$(basename "$source" .cpp).o"
      clang++ "${c_flags[@]}" -std=c++17 -I Sources/CTesseractShim/include -I Sources/$target/include -c "$source" -o "$object"
    done
  done
  clang "${c_flags[@]}" -I Sources/CProcessGuard/include -c Sources/CProcessGuard/ProcessGuard.c -o "$out/modules/CProcessGuard.o"
  clang "${c_flags[@]}" -I Sources/CHeif/include -c Sources/CHeif/HEIFLibrary.c -o "$out/modules/CHeif.o"
  cat > "$out/modules/module.modulemap" <<MAP
module CTesseractShim {
    header "$PWD/Sources/CTesseractShim/include/TesseractShim.h"
    export *
}
module CProcessOverrides {
    header "$PWD/Sources/CProcessOverrides/include/ProcessOverrides.h"
    export *
}
module CProcessGuard {
    header "$PWD/Sources/CProcessGuard/include/ProcessGuard.h"
    export *
}
module CHeif {
    header "$PWD/Sources/CHeif/include/HEIFLibrary.h"
    export *
}
MAP
  touch "$out/modules/c.stamp"
}

# The files a target embeds in its code (Package.swift's .embedInCode), as SwiftPM generates
# them: `PackageResources` with one [UInt8] per file, named after it. Printed as Swift, or
# nothing for a target without such resources.
embedded_resources() {
  swift package dump-package | python3 -c '
import json, os, sys
name = sys.argv[1]
target = next(t for t in json.load(sys.stdin)["targets"] if t["name"] == name)
files = [r["path"] for r in target.get("resources") or [] if "embedInCode" in r["rule"]]
if files:
    print("struct PackageResources {")
    for path in files:
        data = open(os.path.join("Sources", name, path), "rb").read()
        print("static let %s: [UInt8] = [%s]" % (os.path.basename(path).replace(".", "_").replace("-", "_"), ",".join(map(str, data))))
    print("}")
' "$1"
}

# A Swift module from Sources/NAME, rebuilt when any of its files changed.
build_module() {
  local name=$1 sources
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  local object="$out/modules/$name.o"
  if [ -f "$object" ] && [ -z "$(find "Sources/$name" -newer "$object" | head -1)" ]; then return; fi
  embedded_resources "$name" > "$out/modules/$name-resources.swift"
  [ -s "$out/modules/$name-resources.swift" ] && sources+=("$out/modules/$name-resources.swift")
  echo "fuzz: compiling $name (${#sources[@]} files)"
  swiftc "${swift_flags[@]}" -module-name "$name" -wmo -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
    -c "${sources[@]}" -o "$object" 2> >(grep -v "warning: " >&2 || true)
}

build_target() {
  local target=$1 file="Fuzz/Targets/$1.swift"
  [ -f "$file" ] || { echo "fuzz: no target $file" >&2; exit 64; }
  local modules objects=()
  read -r -a modules <<<"$(sed -n '1s#^// fuzz-modules:##p' "$file")"
  for module in "${modules[@]}"; do
    build_module "$module"
    objects+=("$out/modules/$module.o")
  done
  local binary="$out/fuzz-$target"
  if [ -f "$binary" ] && [ -z "$(find "$file" "${objects[@]}" -newer "$binary" | head -1)" ]; then return; fi
  echo "fuzz: linking fuzz-$target"
  swiftc "${swift_flags[@]}" -module-name "Fuzz_$target" "$file" "${objects[@]}" \
    "$out"/modules/CTesseractShim-*.o "$out"/modules/CProcessOverrides-*.o "$out/modules/CProcessGuard.o" "$out/modules/CHeif.o" "${c_libraries[@]}" -lstdc++ -o "$binary" \
    2> >(grep -v -e "warning: " -e "Cannot export local symbol" >&2 || true)
}

build_c_targets
for target in "${targets[@]}"; do build_target "$target"; done
[ "$mode" = build ] && exit 0

# Leaks that third-party code keeps (Scripts/lsan-suppressions.txt, as make test-asan uses it).
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for target in "${targets[@]}"; do
  seeds="Fuzz/Corpus/$target"
  log="$out/$target.log"
  common=(-rss_limit_mb=2048 -timeout=20 -max_len=65536 -artifact_prefix="$out/findings/$target-" -print_final_stats=1)
  if [ "$mode" = smoke ]; then
    # Every seed once: a crash, a leak or a timeout on any of them fails make test.
    if ! "$out/fuzz-$target" "${common[@]}" -runs=0 "$seeds" >"$log" 2>&1; then
      echo "fuzz: $target: a seed failed; see $log" >&2
      tail -30 "$log" >&2
      status=1
      continue
    fi
    echo "fuzz: $target: $(find "$seeds" -type f | wc -l) seeds replayed clean"
  else
    mkdir -p "$out/corpus/$target"
    if ! nice "$out/fuzz-$target" "${common[@]}" -max_total_time="$seconds" "$out/corpus/$target" "$seeds" >"$log" 2>&1; then
      echo "fuzz: $target: FINDING; see $log and $out/findings/" >&2
      tail -40 "$log" >&2
      status=1
      continue
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    corpus=$(find "$out/corpus/$target" -type f | wc -l)
    echo "fuzz: $target: ${seconds} s, ${runs} executions (${rate}/s), no finding; corpus ${corpus} inputs"
  fi
done
exit $status
