#!/usr/bin/env bash
# The serving executable's start: the ready row (spawn to the answer of `initialize`, the echo
# router's code in the cache) for rmcp's stdio server, `mcp-wit serve` and `mcp-wit-serve`, in one
# run. Also each executable's size, relative relocations, and page faults of one start; and the
# time `mcp-wit-serve` takes to hand a line it does not serve (`--http`) over to `mcp-wit serve`.
#
# $BINS holds: mcp-wit (cargo build --release -p mcp-wit-cli), mcp-wit-serve (cargo build
# --release -p mcp-wit-serve, built alone: in a workspace build the features of the two unite),
# baseline-rmcp and loadgen (-p mcp-wit-bench).
#   BINS=/path REPS=5 bench/results/2026-11-30-serving-executable/run.sh   # writes runs.jsonl, summary.md
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-30-serving-executable
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
echo_wasm=$target/guests/wasm32-wasip2/fixture/echo.wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=$work/cache

# One cache for both: `mcp-wit serve` fills it, `mcp-wit-serve` (no compiler) reads the same
# entry. A file's facts are noted once it has been unchanged for 5 s: wait that long, so that
# every start below is the settled cached start.
"$BINS/mcp-wit" serve "$echo_wasm" --cache-dir "$cache" < /dev/null 2> /dev/null
sleep 6
command_of() { # SERVER
  case $1 in
    rmcp) echo "$BINS/baseline-rmcp" ;;
    mcp-wit) echo "$BINS/mcp-wit serve $echo_wasm --guest-output discard --cache-dir $cache" ;;
    serve-only) echo "$BINS/mcp-wit-serve $echo_wasm --guest-output discard --cache-dir $cache" ;;
  esac
}
servers=(rmcp mcp-wit serve-only)

runs=$out/runs.jsonl
: > "$runs"
init=$work/initialize.json
echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"study","version":"1"}}}' > "$init"
faults_of() { # SERVER: the median page faults of 11 starts that answer `initialize`
  for _ in $(seq 11); do
    # shellcheck disable=SC2046 # a command line, split on purpose
    perf stat -x, -e page-faults $(command_of "$1") < "$init" 2>&1 > /dev/null | awk -F, '/page-faults/ {print $1}'
  done | sort -n | sed -n 6p
}
for server in "${servers[@]}"; do
  binary=$(command_of "$server" | cut -d' ' -f1)
  size=$(stat -c %s "$binary")
  relocations=$(readelf -d "$binary" | awk '/RELACOUNT/ {print $3}')
  faults=$(faults_of "$server")
  printf '{"row":"size","server":"%s","bytes":%s,"relocations":%s,"page_faults":%s}\n' \
    "$server" "$size" "${relocations:-0}" "$faults" >> "$runs"
done
# The hand-over: `serve --help` answered by `mcp-wit` directly, and by `mcp-wit-serve` through it
# (the whole line goes over), median wall time of 41 runs each.
handed() { # COMMAND...
  python3 - "$@" <<'PY'
import statistics, subprocess, sys, time
times = []
for _ in range(41):
    started = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - started) * 1000)
print(f"{statistics.median(times):.3f}")
PY
}
printf '{"row":"hand-over","direct_ms":%s,"handed_ms":%s}\n' \
  "$(handed "$BINS/mcp-wit" serve --help)" "$(handed "$BINS/mcp-wit-serve" --help)" >> "$runs"
for rep in $(seq "$REPS"); do
  # Rotate the order, so that drift hits every server alike.
  shift_by=$((rep % ${#servers[@]}))
  order=("${servers[@]:shift_by}" "${servers[@]:0:shift_by}")
  for server in "${order[@]}"; do
    # shellcheck disable=SC2046
    result=$("$BINS/loadgen" cold-start --runs 40 -- $(command_of "$server") | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
    printf '{"row":"ready","server":"%s","rep":%s,"result":%s}\n' "$server" "$rep" "$result" >> "$runs"
  done
  echo "repetition $rep of $REPS done" >&2
done
python3 "$out/summarize.py" "$out" > "$out/summary.md"
cat "$out/summary.md"
