-- wrk script for Scripts/bench-service.sh: POSTs the image named by SNAP_POEM_IMAGE to the
-- path in SNAP_POEM_PATH (default /v1/poems) and prints p50/p95/p99 and the answers that
-- were not 200, as one Markdown-friendly line.
local path = os.getenv("SNAP_POEM_PATH") or "/v1/poems"
local file = assert(io.open(os.getenv("SNAP_POEM_IMAGE"), "rb"))
local body = file:read("*a")
file:close()

function request()
  return wrk.format("POST", path, { ["Content-Type"] = "image/png" }, body)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d rps=%.2f p50=%.0f p95=%.0f p99=%.0f non2xx=%d errors=%d\n",
    summary.requests, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
