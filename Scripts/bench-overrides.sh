#!/usr/bin/env bash
# What each of the executable's overrides of library functions saves (`snap-poem --version
# --verbose` lists them; Sources/CProcessOverrides), and that the text is the same without it.
#
#   Scripts/bench-overrides.sh [BINARY] [IMAGE...]
#
# One process per image (--engines 1), once with every override in effect, once with all of
# them off (SNAP_POEM_NO_OVERRIDES=all) and once with each one off alone; ROUNDS rounds
# (default 5), the settings in a new random order each round. Each figure is the minimum over
# the rounds, of wall time and of CPU time (user + system): on a shared virtual machine the
# noise only ever adds time, and the minimum is the figure it touched least. Prints a
# Markdown table and fails if any setting reads a different text. About 3 minutes with the
# default images; run it on each Debian release (make test-debian13's root has the release
# build of make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/snap-poem}
shift || true
images=("$@")
[ ${#images[@]} -gt 0 ] || images=(SampleImages/Lenore.png SampleImages/photo-phone-size.jpg Scripts/benchset/real/eurotext.tif)
rounds=${ROUNDS:-5}
[ -x "$bin" ] || { echo "bench-overrides: no executable $bin (make release)" >&2; exit 2; }
settings=(none all $("$bin" --version --verbose | awk '/^  [a-z-]+  /{ print $1 }'))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_THREAD_LIMIT=1
TIMEFORMAT='%R %U %S'
for round in $(seq 1 "$rounds"); do
    for setting in $(printf '%s\n' "${settings[@]}" | shuf); do
        for image in "${images[@]}"; do
            name=$(basename "$image")
            if [ "$setting" = none ]; then switch=(env -u SNAP_POEM_NO_OVERRIDES); else switch=(env SNAP_POEM_NO_OVERRIDES="$setting"); fi
            took=$( { time "${switch[@]}" "$bin" "$image" --engines 1 > "$work/$setting.$name.txt" 2> /dev/null; } 2>&1) ||
                { echo "bench-overrides: $bin $image failed with $setting switched off" >&2; exit 1; }
            echo "$setting $name $took" >> "$work/times"
        done
    done
done
for setting in "${settings[@]}"; do
    for image in "${images[@]}"; do
        name=$(basename "$image")
        cmp -s "$work/none.$name.txt" "$work/$setting.$name.txt" ||
            { echo "bench-overrides: $name reads differently with $setting switched off" >&2; exit 1; }
    done
done

echo "$("$bin" --version), $rounds rounds, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo "Minimum wall / CPU seconds per image over the rounds; the last column is the CPU of all images against every override in effect."
echo
awk -v order="${settings[*]}" '
    { key = $1 SUBSEP $2; cpu = $4 + $5
      if (!(key in wall) || $3 < wall[key]) wall[key] = $3
      if (!(key in best) || cpu < best[key]) best[key] = cpu
      if (!($2 in seen)) { seen[$2] = 1; images[++count] = $2 } }
    END {
      n = split(order, names, " ")
      header = "| switched off |"; rule = "| --- |"
      for (i = 1; i <= count; i++) { header = header " " images[i] " |"; rule = rule " ---: |" }
      print header " CPU against none |"; print rule " ---: |"
      for (i = 1; i <= count; i++) base += best["none" SUBSEP images[i]]
      for (s = 1; s <= n; s++) {
        line = "| " names[s] " |"; total = 0
        for (i = 1; i <= count; i++) {
          key = names[s] SUBSEP images[i]; total += best[key]
          line = line sprintf(" %.2f / %.2f |", wall[key], best[key])
        }
        print line sprintf(" %+.1f %% |", (total / base - 1) * 100)
      } }' "$work/times"
echo
echo "The text read was the same with every setting."
