#!/usr/bin/env bash
# The measurements of bench/results/2026-11-29-one-door/: every row of the issue's table, for the
# host before and after the change, with the floors and rmcp in the same run, repetitions
# interleaved (every server at every point, then again). Writes runs.jsonl (one loadgen result a
# line, tagged with its row, server and repetition); summarize.py turns it into summary.md.
#
#   BINS=/path REPS=5 bench/results/2026-11-29-one-door/run.sh
#
# OUT names another folder for runs.jsonl and summary.md (a later pass of the same
# measurements keeps its results beside its README).
#
# BINS holds before/mcp-wit and after/mcp-wit (`cargo build --release -p mcp-wit-cli` of each
# commit); loadgen, baseline-serde and baseline-rmcp come from after/ as well
# (`cargo build --release -p mcp-wit-bench --bins`). The fixtures are the test fixtures
# (`cargo build -p mcp-wit-tests`), the wasmtime CLI the one the engine tests install.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=bench/results/2026-11-29-one-door
out=${OUT:-$here}
: "${BINS:?name the folder holding before/ and after/}"
REPS=${REPS:-5}
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fixtures=$target/guests/wasm32-wasip2/fixture
wasmtime=${WASMTIME:-${MCP_WIT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-wit-tools}/peers/venv/bin/wasmtime}
loadgen=$BINS/after/loadgen
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
runs=$out/runs.jsonl
: > "$runs"

# One measurement: ROW SERVER POINT, then loadgen's arguments. Its JSON result, on one line,
# tagged, goes to runs.jsonl.
measure() {
  local row=$1 server=$2 point=$3 rep=$4; shift 4
  local result
  result=$("$loadgen" "$@" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  printf '{"row":"%s","server":"%s","point":%s,"rep":%s,"result":%s}\n' "$row" "$server" "$point" "$rep" "$result" >> "$runs"
}

host() { # VERSION, then serve's own arguments
  local version=$1; shift
  echo "$BINS/$version/mcp-wit" serve "$fixtures/echo.wasm" --guest-output discard --cache-dir "$cache/$version" "$@"
}

# The component compiled into each version's cache once, so every start below is a cached start.
for version in before after; do
  "$BINS/$version/mcp-wit" serve "$fixtures/echo.wasm" --cache-dir "$cache/$version" < /dev/null
done

for rep in $(seq "$REPS"); do
  # Rotate which version goes first, so drift hits both alike.
  if (( rep % 2 )); then order="before after"; else order="after before"; fi
  for sessions in 8 64; do
    http=(http --era modern --sessions "$sessions" --calls-per-session $((10000 / sessions)) --warmup-per-session 20 --)
    # 2026-07-28 over HTTP, instances reused, against the hyper + serde_json floor.
    for version in $order; do
      measure http-reused "$version" "$sessions" "$rep" "${http[@]}" $(host "$version" --http '{addr}' --log-requests=false --max-instance-reuse-count 1000000)
    done
    measure http-reused floor "$sessions" "$rep" "${http[@]}" "$BINS/after/baseline-serde" --http '{addr}'
    # A fresh instance per request (the default), against `wasmtime serve`'s own fresh floor.
    for version in $order; do
      measure http-fresh "$version" "$sessions" "$rep" "${http[@]}" $(host "$version" --http '{addr}' --log-requests=false)
    done
    measure http-fresh wasmtime-floor "$sessions" "$rep" "${http[@]}" "$wasmtime" serve -Scli --addr '{addr}' "$fixtures/http_floor.wasm"
  done
  # stdio, one call at a time, client and server on one CPU, against the floor.
  for version in $order; do
    measure stdio-1-one-cpu "$version" 1 "$rep" --inflight 1 --cpus 0 -- $(host "$version")
  done
  measure stdio-1-one-cpu floor 1 "$rep" --inflight 1 --cpus 0 -- "$BINS/after/baseline-serde"
  # stdio, 32 in flight, against rmcp.
  for version in $order; do
    measure stdio-32 "$version" 32 "$rep" --inflight 32 -- $(host "$version")
  done
  measure stdio-32 rmcp 32 "$rep" --inflight 32 -- "$BINS/after/baseline-rmcp"
  # Ready: spawn to the answer of `initialize`, the component in the cache.
  for version in $order; do
    measure ready "$version" 0 "$rep" cold-start --runs 10 -- $(host "$version")
  done
  measure ready rmcp 0 "$rep" cold-start --runs 10 -- "$BINS/after/baseline-rmcp"
  echo "repetition $rep of $REPS done" >&2
done
python3 "$here/summarize.py" "$runs" > "$out/summary.md"
cat "$out/summary.md"
