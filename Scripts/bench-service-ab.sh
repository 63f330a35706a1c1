#!/usr/bin/env bash
# Two builds of `snap-poem serve` side by side under wrk, on 127.0.0.1 only: each round starts
# one build, then the other (the order kept, the rounds repeated, so that the machine's noise
# hits both alike), loads it for DURATION seconds per client count, and stops it. Prints one
# line per run: round, build, clients, requests, req/s, p50/p95/p99 ms.
#
#   Scripts/bench-service-ab.sh OLD_BINARY NEW_BINARY [CLIENTS ...]   (default clients: 1 2)
#   JOBS (default 2), ROUNDS (default 3), DURATION (default 10),
#   IMAGE (default SampleImages/formats/stanza-rgb8.png)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [CLIENTS ...]" >&2; exit 64; }
old=$1 new=$2
shift 2
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(1 2)
command -v wrk >/dev/null || { echo "wrk is missing: run 'make deps-service'" >&2; exit 1; }
export SNAP_POEM_IMAGE="${IMAGE:-SampleImages/formats/stanza-rgb8.png}"
log=$(mktemp -d /tmp/snap-poem-ab.XXXXXX)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$log"' EXIT
for round in $(seq "${ROUNDS:-3}"); do
  for build in old new; do
    binary=$old
    [ "$build" = new ] && binary=$new
    # As bench-service.sh starts it: a port the system chooses, read from the log.
    "$binary" serve --port 0 --jobs "${JOBS:-2}" --queue 64 >/dev/null 2>"$log/$build.err" &
    server=$!
    port=""
    for _ in $(seq 1 300); do
      port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log/$build.err")"
      [ -n "$port" ] && break
      sleep 0.1
    done
    [ -n "$port" ] || { echo "bench-service-ab: $build did not start: $(cat "$log/$build.err")" >&2; exit 1; }
    # One warm-up request, so that no run measures it.
    curl -s -o /dev/null --data-binary "@$SNAP_POEM_IMAGE" -H 'Content-Type: image/png' "http://127.0.0.1:$port/v1/poems"
    for count in "${clients[@]}"; do
      result=$(wrk -t"$count" -c"$count" -d"${DURATION:-10}s" -s Scripts/wrk-post-image.lua "http://127.0.0.1:$port" | grep RESULT)
      echo "round $round $build clients=$count ${result#RESULT }"
    done
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
  done
done
