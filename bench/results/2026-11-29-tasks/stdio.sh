#!/usr/bin/env bash
# The stdio rows of bench/results/2026-11-29-tasks/: one echo call at a time (client and server on
# one CPU) and the cached start, with tasks served (the default) and with --no-tasks, interleaved;
# stdio.jsonl and stdio.md written here.
#
#   BIN=target/release REPS=5 bench/results/2026-11-29-tasks/stdio.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-29-tasks
BIN=${BIN:-target/release}
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
runs=$out/stdio.jsonl
: > "$runs"
"$BIN/mcp-wit" serve "$echo_wasm" --cache-dir "$cache" </dev/null
measure() { # ROW VARIANT REP, then loadgen's arguments
  local row=$1 variant=$2 rep=$3 result; shift 3
  result=$("$BIN/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","variant":"%s","rep":%s,"result":%s}\n' "$row" "$variant" "$rep" "$result" >> "$runs"
}
for rep in $(seq "$REPS"); do
  # Rotate which goes first, so drift hits both alike.
  if (( rep % 2 )); then order="tasks no-tasks"; else order="no-tasks tasks"; fi
  for variant in $order; do
    flags=(); [[ $variant == no-tasks ]] && flags=(--no-tasks)
    serve=("$BIN/mcp-wit" serve "$echo_wasm" --guest-output discard --cache-dir "$cache" "${flags[@]}")
    measure stdio-1-one-cpu "$variant" "$rep" --era modern --inflight 1 --cpus 0 -- "${serve[@]}"
    measure ready "$variant" "$rep" cold-start --runs 20 -- "${serve[@]}"
  done
done
python3 - "$runs" > "$out/stdio.md" <<'PY'
import json, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line); runs[(r["row"], r["variant"])].append(r["result"])
m = lambda row, v, f: statistics.median(x[f] for x in runs[(row, v)])
print("| row | measure | tasks served | --no-tasks | ratio |\n|---|---|---:|---:|---:|")
for row, field, label in (("stdio-1-one-cpu", "p50_us", "p50 µs"), ("stdio-1-one-cpu", "cpu_us_per_call", "server CPU µs/call"), ("ready", "median_ms", "ready ms")):
    a, b = m(row, "tasks", field), m(row, "no-tasks", field)
    print(f"| {row} | {label} | {a:.2f} | {b:.2f} | {a / b:.2f}× |")
PY
cat "$out/stdio.md"
