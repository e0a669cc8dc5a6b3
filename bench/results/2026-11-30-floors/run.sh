#!/usr/bin/env bash
# The measurements of bench/results/2026-11-30-floors/: how far the `ready` and stdio rows
# of the one-door table are from what any WebAssembly host, and a native rmcp server, take on
# this machine. Every server at every repetition, in rotating order; writes runs.jsonl (one
# loadgen result a line, tagged) and summary.md.
#
#   BINS=/path REPS=9 bench/results/2026-11-30-floors/run.sh
#
# BINS holds:
#   mcp-wit                     cargo build --release -p mcp-wit-cli
#   mcp-wit-before              the same of bf4a8cf, before a command server's instances came
#                               from the pool over stdio
#   mcp-wit-nopie               the same, linked as a fixed-address executable:
#                               cargo rustc --release -p mcp-wit-cli --bin mcp-wit -- -C link-arg=-no-pie
#   loadgen, baseline-serde, baseline-rmcp
#                               cargo build --release -p mcp-wit-bench --bins
#   baseline-wasmtime           cargo build --release -p mcp-wit-bench --bin baseline-wasmtime
#   baseline-wasmtime-compiler  the same with --features baseline-compiler
# The fixtures are the test fixtures (`cargo build -p mcp-wit-tests`); the wasmtime CLI is the
# one the engine tests install.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=bench/results/2026-11-30-floors
: "${BINS:?name the folder holding the binaries}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
venv=${MCP_WIT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-wit-tools}/peers/venv
# The CLI's own executable, not the Python script that starts it.
wasmtime=$("$venv/bin/python" -c 'import os, wasmtime_cli; print(os.path.join(os.path.dirname(wasmtime_cli.__file__), "wasmtime"))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=$out/runs.jsonl
: > "$runs"

# rmcp's stdio server compiled for wasm32-wasip2, precompiled for each engine that runs it.
"$BINS/baseline-wasmtime-compiler" --precompile "$fixtures/rmcp_stdio_server.wasm" "$work/floor.cwasm"
"$wasmtime" compile "$fixtures/rmcp_stdio_server.wasm" -o "$work/cli.cwasm"
# And in mcp-wit's cache, so that every start below is a cached start.
for component in echo rmcp_stdio_server; do
  for build in mcp-wit mcp-wit-before mcp-wit-nopie; do
    "$BINS/$build" serve "$fixtures/$component.wasm" --cache-dir "$work/$build" < /dev/null 2> /dev/null
  done
done

measure() { # ROW SERVER REP, then loadgen's arguments
  local row=$1 server=$2 rep=$3; shift 3
  local result
  result=$("$BINS/loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","server":"%s","rep":%s,"result":%s}\n' "$row" "$server" "$rep" "$result" >> "$runs"
}

serve() { # BUILD COMPONENT
  echo "$BINS/$1" serve "$fixtures/$2.wasm" --guest-output discard --cache-dir "$work/$1"
}

declare -A ready=(
  [rmcp]="$BINS/baseline-rmcp"
  [wasm-floor]="$BINS/baseline-wasmtime $work/floor.cwasm"
  [wasmtime-cli]="$wasmtime run --allow-precompiled $work/cli.cwasm"
  [mcp-wit-rmcp-wasm]="$(serve mcp-wit rmcp_stdio_server)"
  [mcp-wit-before-rmcp-wasm]="$(serve mcp-wit-before rmcp_stdio_server)"
  [mcp-wit-echo]="$(serve mcp-wit echo)"
  [mcp-wit-echo-nopie]="$(serve mcp-wit-nopie echo)"
)
declare -A stdio=(
  [floor]="$BINS/baseline-serde"
  [mcp-wit-echo]="$(serve mcp-wit echo)"
  [rmcp]="$BINS/baseline-rmcp"
)
names=("${!ready[@]}")
for rep in $(seq "$REPS"); do
  # Rotate the order, so that drift hits every server alike.
  shift_by=$(( rep % ${#names[@]} ))
  order=("${names[@]:shift_by}" "${names[@]:0:shift_by}")
  for server in "${order[@]}"; do
    # shellcheck disable=SC2086 # a command line, split on purpose
    measure ready "$server" "$rep" cold-start --runs 10 -- ${ready[$server]}
  done
  for server in "${!stdio[@]}"; do
    # shellcheck disable=SC2086
    measure stdio-1-one-cpu "$server" "$rep" --inflight 1 --cpus 0 -- ${stdio[$server]}
  done
  echo "repetition $rep of $REPS done" >&2
done
python3 "$out/summarize.py" "$runs" > "$out/summary.md"
cat "$out/summary.md"
