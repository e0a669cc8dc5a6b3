#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-shapes/: the same echo tool served as a
# `wasix:mcp` router (components/echo), as a typed component (components/typed, its exported
# `echo: func(text: string) -> string`) and as an MCP server inside a component (components/echo
# wrapped by `mcp-wit wrap`, a wasi:http server the host reaches as its client), as an rmcp
# server in a WASIp3 handler (components/rmcp-http-server, wasi:http/handler@0.3) and as a command
# serving MCP over its stdin and stdout (components/stdio-server), with the
# serde_json stdio floor in the same run, over
# stdio: one call at a time with client and server on one CPU (p50), and 32 in flight
# (throughput), each with an instance per session (the default) and a fresh one per call.
# Repetitions interleaved. Writes runs.jsonl and summary.md beside this script.
#
#   BIN=target/release REPS=5 bench/results/2026-11-29-shapes/run.sh
#
# BIN holds mcp-wit (`cargo build --release -p mcp-wit-cli`), loadgen and baseline-serde
# (`cargo build --release -p mcp-wit-bench --bins`); the fixtures are the test fixtures
# (`cargo build -p mcp-wit-tests`).
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=bench/results/2026-11-29-shapes
BIN=${BIN:-target/release}
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
cache=$(mktemp -d)
runs=$here/runs.jsonl
: > "$runs"

measure() { # ROW SERVER REP, then loadgen's arguments
  local row=$1 server=$2 rep=$3; shift 3
  local result
  result=$("$BIN/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","server":"%s","rep":%s,"result":%s}\n' "$row" "$server" "$rep" "$result" >> "$runs"
}

# The wrapped echo beside the fixtures it is served with.
wrapped=$(mktemp -d)
trap 'rm -rf "$cache" "$wrapped"' EXIT
"$BIN/mcp-wit" wrap "$fixtures/echo.wasm" -o "$wrapped/echo-server.wasm" > /dev/null
serve() { # FIXTURE (or the wrapped echo-server), then serve's own arguments
  local fixture=$1; shift
  local file=$fixtures/$fixture.wasm
  [[ $fixture == echo-server ]] && file=$wrapped/echo-server.wasm
  echo "$BIN/mcp-wit" serve "$file" --guest-output discard --cache-dir "$cache" "$@"
}
for fixture in echo typed echo-server rmcp_http_server stdio_server; do $(serve "$fixture") < /dev/null; done

for rep in $(seq "$REPS"); do
  for instances in per-session per-request; do
    for shape in router:echo typed:typed http-server:echo-server http-server-p3:rmcp_http_server stdio-server:stdio_server; do
      name=${shape%%:*} fixture=${shape#*:}
      measure "stdio-1-$instances" "$name" "$rep" --inflight 1 --cpus 0 --calls 50000 -- $(serve "$fixture" --instances "$instances")
      measure "stdio-32-$instances" "$name" "$rep" --inflight 32 --calls 50000 -- $(serve "$fixture" --instances "$instances")
    done
  done
  measure stdio-1-per-session floor "$rep" --inflight 1 --cpus 0 --calls 50000 -- "$BIN/baseline-serde"
  measure stdio-32-per-session floor "$rep" --inflight 32 --calls 50000 -- "$BIN/baseline-serde"
done

python3 - "$runs" > "$here/summary.md" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
def median(row, server, key):
    values = [r["result"][key] for r in runs if r["row"] == row and r["server"] == server]
    return statistics.median(values) if values else None
print("Medians of %d repetitions, interleaved; a ratio is a ratio of medians.\n" % max(r["rep"] for r in runs))
shapes = ["typed", "http-server", "http-server-p3", "stdio-server"]
print("| row | measure | router | " + " | ".join("%s | ÷ router" % s for s in shapes) + " | floor |")
print("|---|---|---:|" + "---:|---:|" * len(shapes) + "---:|")
for row in ["stdio-1-per-session", "stdio-1-per-request", "stdio-32-per-session", "stdio-32-per-request"]:
    for key, label, unit in [("p50_us", "p50", "µs"), ("calls_per_sec", "throughput", "/s"), ("cpu_us_per_call", "server CPU per call", "µs")]:
        if row.startswith("stdio-1") and key == "calls_per_sec" or row.startswith("stdio-32") and key == "p50_us":
            continue
        router, floor = median(row, "router", key), median(row, "floor", key)
        fmt = lambda v: "%s %s" % (format(round(v), ",") if unit == "/s" else "%.1f" % v, unit)
        cells = ["%s | %.2f×" % (fmt(v), v / router) for v in (median(row, s, key) for s in shapes)]
        print("| %s | %s | %s | %s | %s |" % (row, label, fmt(router), " | ".join(cells), fmt(floor) if floor else "–"))
PY
cat "$here/summary.md"
