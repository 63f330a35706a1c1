#!/usr/bin/env bash
# The service's part of BENCHMARKS.md: snap-poem serve under load from wrk, on 127.0.0.1
# only, for a bounded time. Run by Scripts/bench.sh (make bench) after a release build, or
# alone: Scripts/bench-service.sh. Prints Markdown.
#
#   DURATION (default 20)  seconds of load per wrk run
#   REQUESTS (default 1000) requests of the resident-memory run
#   IMAGE (default SampleImages/formats/stanza-rgb8.png)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)"
duration="${DURATION:-20}"
requests="${REQUESTS:-1000}"
image="${IMAGE:-SampleImages/formats/stanza-rgb8.png}"
command -v wrk >/dev/null || { echo "wrk is missing: run 'make deps-service'" >&2; exit 1; }
log="$(mktemp)"
server_pid=""

stop_server() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap 'stop_server; rm -f "$log"' EXIT

# start_server JOBS: starts snap-poem serve on a port the system chooses; sets $port.
start_server() {
  : >"$log"
  "$bin/snap-poem" serve --port 0 --jobs "$1" --queue 64 >/dev/null 2>"$log" &
  server_pid=$!
  port=""
  for _ in $(seq 1 300); do
    port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log")"
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "snap-poem serve did not start: $(cat "$log")" >&2
  exit 1
}

resident_mb() {
  awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"
}

# One warm-up request, so that the first wrk run does not measure it.
warm_up() {
  curl -s -o /dev/null --data-binary "@$image" -H 'Content-Type: image/png' "http://127.0.0.1:$port/v1/poems"
}

# field NAME LINE: the value of NAME=… in wrk's RESULT line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

name="$(basename "$image")"
echo "Load average when the run started (2 cores): $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "### Requests per second against engines"
echo
echo "$name, POSTed as the body; each wrk run lasts ${duration} s; queue 64, so nothing is refused."
echo
echo "| engines (--jobs) | connections | requests | req/s | p50 ms | p95 ms | p99 ms | not 200 |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for jobs in 1 2; do
  start_server "$jobs"
  warm_up
  for connections in 1 2 4 8; do
    threads=$(( connections < 2 ? 1 : 2 ))
    line="$(SNAP_POEM_IMAGE="$image" wrk -t "$threads" -c "$connections" -d "${duration}s" --timeout 60s \
      -s Scripts/wrk-post-image.lua "http://127.0.0.1:$port" | grep '^RESULT')"
    failed=$(( $(field non2xx "$line") + $(field errors "$line") ))
    echo "| $jobs | $connections | $(field requests "$line") | $(field rps "$line") | $(field p50 "$line") | $(field p95 "$line") | $(field p99 "$line") | $failed |"
  done
  stop_server
done

echo
echo "### The same image through snap-poem processes (one per image)"
echo
echo "| processes at once | images | seconds | images/s |"
echo "| ---: | ---: | ---: | ---: |"
cli_images=$(( duration * 2 ))
for jobs in 1 2; do
  start=$(date +%s.%N)
  seq "$cli_images" | xargs -P "$jobs" -I{} "$bin/snap-poem" "$image" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v n="$cli_images" -v j="$jobs" -v s="$start" -v e="$end" \
    'BEGIN { printf "| %d | %d | %.1f | %.2f |\n", j, n, e - s, n / (e - s) }'
done

echo
echo "### Resident memory over $requests requests (2 engines, 2 clients)"
echo
start_server 2
echo "| requests answered | resident MB |"
echo "| ---: | ---: |"
echo "| 0 (engines loaded) | $(resident_mb "$server_pid") |"
done_so_far=0
for mark in 1 100 500 "$requests"; do
  [ "$mark" -gt "$requests" ] && continue
  count=$(( mark - done_so_far ))
  seq "$count" | xargs -P 2 -I{} curl -s -o /dev/null --data-binary "@$image" -H 'Content-Type: image/png' \
    "http://127.0.0.1:$port/v1/poems"
  done_so_far=$mark
  echo "| $mark | $(resident_mb "$server_pid") |"
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
answered="$(curl -s "http://127.0.0.1:$port/metrics" | sed -n 's/^snap_poem_http_requests_total{route="\/v1\/poems",code="200"} //p')"
echo
echo "Answered 200 by the server in the memory run: ${answered:-0} of $requests."
stop_server
